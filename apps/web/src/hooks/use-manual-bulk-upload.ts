import type { UploadedManualFile } from '@fieldassist/client';
import { useCallback, useState } from 'react';

import { withRetries } from '@/components/library/with-retries';
import { useManualUpload } from '@/hooks/use-manual-upload';

/** Per-file progress in percent; -1 is shown as 'Failed' (SPEC.md section 4). */
export interface BulkFileState {
  name: string;
  progress: number;
  error?: string;
  /** What the user should know about a saved file (a scanned PDF, read by OCR while processed). */
  note?: string;
}

export const FAILED = -1;

// SPEC.md section 9: a queued task is tried up to 2 more times (1 s base, doubling) after a
// network, rate-limit or time-out error. Only the upload: a save that may have happened is not repeated.
const UPLOAD_RETRIES = { retries: 2, baseMs: 1000 };

/**
 * Bulk upload (SPEC.md section 4): one file at a time, no review, metadata saved as read.
 * Progress 20%, up to 70% while the file is sent, 75% once sent, 85% when the server has read
 * its metadata, 100% saved. A file whose text cannot be read at all is not saved: nobody
 * reviews a bulk upload, so an unreadable document would sit in the library as an empty
 * 'Unknown' (issue 8). There is no fixed wait between files.
 */
export function useManualBulkUpload() {
  const steps = useManualUpload();
  const [files, setFiles] = useState<BulkFileState[]>([]);
  const [running, setRunning] = useState(false);

  const run = useCallback(
    async (picked: File[], versionId: string): Promise<{ succeeded: number; failed: number }> => {
      const set = (index: number, change: Partial<BulkFileState>) =>
        setFiles((all) => all.map((state, i) => (i === index ? { ...state, ...change } : state)));
      setFiles(picked.map((file) => ({ name: file.name, progress: 0 })));
      setRunning(true);
      let succeeded = 0;
      try {
        for (const [index, file] of picked.entries()) {
          let uploaded: UploadedManualFile | undefined;
          try {
            set(index, { progress: 20 });
            const onProgress = (percent: number) =>
              set(index, { progress: percent < 100 ? 20 + Math.round(percent / 2) : 75 });
            uploaded = await withRetries(() => steps.upload(file, onProgress), UPLOAD_RETRIES);
            if (uploaded.unreadable) throw new Error(uploaded.unreadable);
            set(index, { progress: 85, note: uploaded.notice });
            await steps.save(uploaded, { ...uploaded.metadata, versionId, tagIds: [] });
            set(index, { progress: 100 });
            succeeded += 1;
          } catch (error) {
            console.warn(`Bulk upload of ${file.name} failed`, error);
            if (uploaded) void steps.discard(uploaded.path);
            set(index, { progress: FAILED, error: error instanceof Error ? error.message : undefined });
          }
        }
      } finally {
        setRunning(false);
      }
      return { succeeded, failed: picked.length - succeeded };
    },
    [steps],
  );

  const reset = useCallback(() => setFiles([]), []);

  return { files, running, run, reset };
}
