import type { ErrorCode } from '../errors.js';
import type { PageText } from './chunk.js';
import type { DocumentKind } from './sniff.js';

// The messages between extract-pool.ts (main thread) and extract-worker.ts. Kept apart from
// the worker so the main thread never loads the extractors themselves.

/**
 * One job, as the pool posts it to a worker: a document's text (a PDF's pages without a text
 * layer are reported for OCR; with `readScans` they will be read, so they do not fail the document), the text
 * of a photo, or the text of one scanned PDF page (rendered, then read by OCR).
 */
export type WorkerInput =
  | { kind: DocumentKind; bytes: Uint8Array; readScans?: boolean }
  | { kind: 'image'; bytes: Uint8Array }
  | { kind: 'pdf-page'; bytes: Uint8Array; page: number };

/** Marks a worker's workerData as ours, so importing the worker module anywhere else does nothing. */
export const workerRole = 'fieldassist-extract';

/** What a worker posts back: each page as soon as it is read (or found scanned), then done or error. */
export type WorkerMessage =
  | { type: 'page'; page: PageText }
  | { type: 'scan'; page: number }
  | { type: 'done' }
  | { type: 'error'; code: ErrorCode | null; message: string };

/** What one job yields: the pages read, and the PDF pages that need OCR. */
export interface WorkerResult {
  pages: PageText[];
  scans: number[];
}
