import type { z } from 'zod';

/** Marks what was not found while extracting; saved as absent. */
export declare const UNKNOWN: string;

/** A manual's metadata as read from its text (SPEC.md sections 3 and 5); 'Unknown' marks what was not found. */
export interface ManualMetadata {
  title: string;
  technology: string;
  datePublished: string;
  partNumber: string;
}

/** A file stored in the library and read by the server, waiting to be saved as a manual. */
export interface UploadedManualFile {
  /** The storage path: what saving and discarding take. */
  path: string;
  fileUrl: string;
  fileName: string;
  fileSize: number;
  fileType: string;
  metadata: ManualMetadata;
  /** Set when the file's text could not be read (corrupt, empty): the server says why. */
  unreadable?: string;
  /** Set when the file is kept but its text is read later: a PDF of scanned pages only, read by OCR at ingestion. */
  notice?: string;
}

export declare const PROCESSING_STATUSES: readonly ['pending', 'processing', 'ready', 'failed'];
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

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
  /** The scanned pages whose text ingestion read by OCR (as listed from the manuals table). */
  ocrPages?: number[];
}

export declare const ZManualMetadata: z.ZodType<ManualMetadata>;
export declare const ZUploadedManualFile: z.ZodType<UploadedManualFile>;
export declare const ZManual: z.ZodType<Manual>;
