import type { Manual, ManualMetadata, UploadedManualFile } from '@fieldassist/client/manuals';

export interface SaveManualInput extends Partial<ManualMetadata> {
  path: string;
  fileName?: string;
  versionId: string;
  description?: string;
  tagIds?: string[];
}

/** The product's manual library (SPEC.md section 4): upload, review, save. */
export interface ManualsClient {
  /** Stores the file in the library and answers with the metadata the server read from its text. */
  upload(file: Blob, options?: { onProgress?: (percent: number) => void }): Promise<UploadedManualFile>;
  /** Saves the manual with its tags in one transaction; the server then ingests it. */
  save(input: SaveManualInput): Promise<Manual>;
  /** Removes an uploaded file nobody will save (a cancelled review, a failed bulk step). */
  discard(path: string): Promise<void>;
  /** Deletes a manual with its passages, tags and file (admins only). */
  delete(id: string): Promise<void>;
}
