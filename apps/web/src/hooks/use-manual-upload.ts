import type { UploadedManualFile } from '@fieldassist/client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';

import type { ExtractedMetadata } from '@/components/library/manual-metadata';
import { LIBRARY_KEY } from '@/hooks/use-library';
import { client } from '@/lib/client';

export interface ManualDetails extends ExtractedMetadata {
  versionId: string;
  tagIds: string[];
}

/**
 * The steps of putting a manual in the library (SPEC.md section 4), each one call to the server
 * through the SDK: upload (the server stores the file and reads its metadata), then save (the
 * manual and its tags in one transaction; the server queues its ingestion). Each step throws
 * the SDK's error with the server's text.
 */
export function useManualUpload() {
  const queryClient = useQueryClient();

  const upload = useCallback(
    (file: File, onProgress: (percent: number) => void) => client.manuals.upload(file, { onProgress }),
    [],
  );

  const save = useCallback(
    async (uploaded: UploadedManualFile, details: ManualDetails) => {
      try {
        return await client.manuals.save({ path: uploaded.path, fileName: uploaded.fileName, ...details });
      } finally {
        void queryClient.invalidateQueries({ queryKey: LIBRARY_KEY });
      }
    },
    [queryClient],
  );

  /** Removes an uploaded file nobody will save (review cancelled, or a failed bulk step). */
  const discard = useCallback(
    (path: string) =>
      client.manuals.discard(path).catch((error: unknown) => console.warn('Removing the abandoned file failed', error)),
    [],
  );

  return useMemo(() => ({ upload, save, discard }), [upload, save, discard]);
}
