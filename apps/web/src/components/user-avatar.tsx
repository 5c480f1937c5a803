import { useState } from 'react';

import { cn } from '@/lib/utils';

/** Up to two initials from the display name, else from the email (SPEC.md section 9). */
export function initialsOf({ displayName, email }: { displayName?: string | null; email: string }): string {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0)
    return words
      .slice(0, 2)
      .map((word) => word[0]!.toUpperCase())
      .join('');
  return email.slice(0, 1).toUpperCase();
}

type UserAvatarProps = { displayName?: string | null; email: string; imageUrl?: string | null; className?: string };

/**
 * The user's picture, or a round badge with their initials when there is none (or it fails
 * to load). Decorative: the name is always given in text nearby.
 */
export function UserAvatar({ displayName, email, imageUrl, className }: UserAvatarProps) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const box = cn(
    'flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary/10 text-sm font-semibold text-primary',
    className,
  );
  if (imageUrl && failedUrl !== imageUrl) {
    return (
      <span aria-hidden="true" className={box}>
        <img src={imageUrl} alt="" className="size-full object-cover" onError={() => setFailedUrl(imageUrl)} />
      </span>
    );
  }
  return (
    <span aria-hidden="true" className={box}>
      {initialsOf({ displayName, email })}
    </span>
  );
}
