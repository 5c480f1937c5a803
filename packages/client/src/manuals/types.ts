/** A manual's metadata as read from its file (SPEC.md section 3); 'Unknown' marks what was not found. */
export interface ManualMetadata {
  title: string;
  technology: string;
  datePublished: string;
  partNumber: string;
}

/** A file stored in the library and read by the server, waiting to be saved as a manual. */
export interface UploadedManualFile {
  /** The storage path: what `save` and `discard` take. */
  path: string;
  fileUrl: string;
  fileName: string;
  fileSize: number;
  fileType: string;
  metadata: ManualMetadata;
  /** Set when the file's text could not be read (corrupt, empty, scanned): the server says why. */
  unreadable?: string;
}

export interface SaveManualInput extends Partial<ManualMetadata> {
  path: string;
  fileName?: string;
  versionId: string;
  description?: string;
  tagIds?: string[];
}

export type ProcessingStatus = 'pending' | 'processing' | 'ready' | 'failed';

/** A manual of the library (SPEC.md section 3), camelCase as the app sees it. */
export interface Manual {
  id: string;
  versionId: string | null;
  title: string;
  fileUrl: string;
  fileName: string;
  fileSize: number;
  fileType: string | null;
  description: string | null;
  documentType: 'manual' | 'system_planner';
  technology: string | null;
  datePublished: string | null;
  partNumber: string | null;
  createdAt: string;
  updatedAt: string;
  uploadedBy: string | null;
  /** Set by the server's ingestion; pushed on the `manuals` channel as it changes. */
  processingStatus: ProcessingStatus;
  processingError: string | null;
  pageCount: number | null;
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
