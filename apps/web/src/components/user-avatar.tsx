import { cn } from '@/lib/utils';

/** Up to two initials from the display name, else from the email (SPEC.md section 9). */
export function initialsOf({ displayName, email }: { displayName?: string | null; email: string }): string {
  const words = (displayName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) return words.slice(0, 2).map((word) => word[0]!.toUpperCase()).join('');
  return email.slice(0, 1).toUpperCase();
}

type UserAvatarProps = { displayName?: string | null; email: string; className?: string };

/** A round badge with the user's initials; decorative, the name is always given in text nearby. */
export function UserAvatar({ displayName, email, className }: UserAvatarProps) {
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary', className)}
    >
      {initialsOf({ displayName, email })}
    </span>
  );
}
