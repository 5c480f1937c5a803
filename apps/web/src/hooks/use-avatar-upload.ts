import type { AuthUser } from '@fieldassist/client';
import { useState } from 'react';

import { client } from '@/lib/client';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

/** SPEC.md section 5: the reason a picked file cannot be an avatar, in the spec's words. */
export function avatarProblem(file: File): string | undefined {
  if (!file.type.startsWith('image/')) return 'Please upload an image file';
  if (file.size >= MAX_AVATAR_BYTES) return 'Image must be less than 5MB';
  return undefined;
}

const extensionOf = (file: File) =>
  file.name.match(/\.([a-z0-9]+)$/i)?.[1]?.toLowerCase() ?? file.type.split('/')[1] ?? 'png';

/**
 * Stores a picked picture under avatars/ (one per user, replaced each time) and reports the
 * percent sent while it goes. Resolves with the public URL; throws the SDK's error.
 */
export function useAvatarUpload(user: AuthUser) {
  const [progress, setProgress] = useState<number | null>(null);

  const upload = async (file: File): Promise<string> => {
    setProgress(0);
    try {
      const { publicUrl } = await client.storage.upload(file, `avatars/${user.id}.${extensionOf(file)}`, {
        upsert: true,
        onProgress: setProgress,
      });
      return publicUrl;
    } finally {
      setProgress(null);
    }
  };

  return { upload, progress, uploading: progress !== null };
}
