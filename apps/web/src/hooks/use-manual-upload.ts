import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';

import { knownValue, titleFromFileName, type ExtractedMetadata } from '@/components/library/manual-metadata';
import { LIBRARY_KEY } from '@/hooks/use-library';
import { useManualMetadata } from '@/hooks/use-manual-metadata';
import { client } from '@/lib/client';
import { manualsTable, manualTagsTable, type Manual } from '@/lib/tables';

export interface StoredFile {
  file: File;
  publicUrl: string;
  /** The storage path, for removing the file again when the upload is abandoned. */
  path: string;
}

export interface ManualDetails extends ExtractedMetadata {
  versionId: string;
  tagIds: string[];
}

const randomHex = () => crypto.randomUUID().replaceAll('-', '');

// Storage paths allow letters, digits and a little punctuation. The time is a folder, not a
// prefix, because the path's last segment is the stored file's name (what a download is called).
const storagePath = (fileName: string) => `manuals/${Date.now()}/${fileName.replace(/[^\p{L}\p{N} ._()-]+/gu, '_').trim() || 'manual'}`;

const typeByExtension: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain',
};
const fileTypeOf = (file: File) => file.type || typeByExtension[file.name.split('.').pop()?.toLowerCase() ?? ''] || 'application/octet-stream';

/**
 * The steps of putting a manual in the library (SPEC.md section 4): store the file under
 * manuals/ with progress, read its metadata, and save the manual with its tags; the server
 * then ingests the file by itself. Each step throws the SDK's error with the server's text.
 */
export function useManualUpload(email: string) {
  const queryClient = useQueryClient();
  const readMetadata = useManualMetadata();

  const store = useCallback(async (file: File, onProgress: (percent: number) => void): Promise<StoredFile> => {
    const { publicUrl, path } = await client.storage.upload(file, storagePath(file.name), { upsert: true, onProgress });
    return { file, publicUrl, path };
  }, []);

  const save = useCallback(
    async (stored: StoredFile, details: ManualDetails): Promise<Manual> => {
      const manual = await manualsTable.create({
        id: `manual_${randomHex()}`,
        versionId: details.versionId,
        // 'Unknown' is absent on save; the title then comes from the file name.
        title: knownValue(details.title) ?? titleFromFileName(stored.file.name),
        fileUrl: stored.publicUrl,
        fileName: stored.file.name,
        fileSize: stored.file.size,
        fileType: fileTypeOf(stored.file),
        documentType: 'manual',
        technology: knownValue(details.technology),
        datePublished: knownValue(details.datePublished),
        partNumber: knownValue(details.partNumber),
        uploadedBy: email,
      });
      try {
        if (details.tagIds.length) await manualTagsTable.createMany(details.tagIds.map((tagId) => ({ manualId: manual.id, tagId })));
      } finally {
        void queryClient.invalidateQueries({ queryKey: LIBRARY_KEY });
      }
      return manual;
    },
    [email, queryClient],
  );

  /** Removes a stored file nobody will save (review cancelled, or a failed bulk step). */
  const discard = useCallback((path: string) => client.storage.remove(path).then(() => undefined, (error: unknown) => console.warn('Removing the abandoned file failed', error)), []);

  return useMemo(() => ({ store, readMetadata, save, discard }), [store, readMetadata, save, discard]);
}
