import { Camera, LoaderCircle } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';

import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { UserAvatar } from '@/components/user-avatar';

type AvatarUploadProps = {
  displayName: string | null;
  email: string;
  imageUrl: string | null;
  /** Percent sent while uploading, else null. */
  progress: number | null;
  onPick: (file: File) => void;
};

/** The profile picture with a button that picks a new one (images only; checked by the page). */
export function AvatarUpload({ displayName, email, imageUrl, progress, onPick }: AvatarUploadProps) {
  const input = useRef<HTMLInputElement>(null);
  const uploading = progress !== null;

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // picking the same file again still fires a change
    if (file) onPick(file);
  };

  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-center">
      <UserAvatar displayName={displayName} email={email} imageUrl={imageUrl} className="size-24 text-2xl" />
      <div className="flex w-full flex-col items-center gap-2 sm:items-start">
        <input
          ref={input}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={picked}
          data-testid="avatar-input"
        />
        <Button type="button" variant="outline" onClick={() => input.current?.click()} disabled={uploading}>
          {uploading ? (
            <LoaderCircle className="animate-spin motion-reduce:animate-none" aria-hidden="true" />
          ) : (
            <Camera aria-hidden="true" />
          )}
          {uploading ? 'Uploading…' : 'Change Photo'}
        </Button>
        {uploading ? (
          <Progress value={progress} aria-label="Upload progress" className="w-full max-w-48" />
        ) : (
          <p className="text-xs text-muted-foreground">An image under 5MB</p>
        )}
      </div>
    </div>
  );
}
