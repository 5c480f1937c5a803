// The manual library's wire shapes (SPEC.md sections 3 to 5): the metadata the server reads
// from a manual's text (the AI metadata object), the uploaded file awaiting review, and the
// saved manual. The server builds them typed from these schemas; the client SDK reads its
// answers through them. Plain JavaScript with its types beside it, as roles.js.
import { z } from 'zod';

/** Marks what was not found while extracting; saved as absent. */
export const UNKNOWN = 'Unknown';

export const ZManualMetadata = z.object({
  title: z.string(),
  technology: z.string(),
  datePublished: z.string(),
  partNumber: z.string(),
});

export const ZUploadedManualFile = z.object({
  /** The storage path: what saving and discarding take. */
  path: z.string(),
  fileUrl: z.string(),
  fileName: z.string(),
  fileSize: z.number(),
  fileType: z.string(),
  metadata: ZManualMetadata,
  /** Set when the file's text could not be read (corrupt, empty): the server says why. */
  unreadable: z.string().optional(),
  /** Set when the file is kept but its text is read later: a PDF of scanned pages only, read by OCR at ingestion. */
  notice: z.string().optional(),
});

export const PROCESSING_STATUSES = ['pending', 'processing', 'ready', 'failed'];

/** A manual of the library, camelCase as the app sees it. */
export const ZManual = z.object({
  id: z.string(),
  versionId: z.string().nullable(),
  title: z.string(),
  fileUrl: z.string(),
  fileName: z.string(),
  fileSize: z.number(),
  fileType: z.string().nullable(),
  description: z.string().nullable(),
  documentType: z.enum(['manual', 'system_planner']),
  technology: z.string().nullable(),
  datePublished: z.string().nullable(),
  partNumber: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  uploadedBy: z.string().nullable(),
  /** Set by the server's ingestion; pushed on the `manuals` channel as it changes. */
  processingStatus: z.enum(PROCESSING_STATUSES),
  processingError: z.string().nullable(),
  pageCount: z.number().nullable(),
  /** The scanned pages whose text ingestion read by OCR (as listed from the manuals table). */
  ocrPages: z.array(z.number()).optional(),
});
