import type { ErrorCode } from '../errors.js';
import type { PageText } from './chunk.js';
import type { DocumentKind } from './sniff.js';

// The messages between extract-pool.ts (main thread) and extract-worker.ts. Kept apart from
// the worker so the main thread never loads the extractors themselves.

/** One extraction, as the pool posts it to a worker. */
export interface WorkerInput {
  kind: DocumentKind;
  bytes: Uint8Array;
}

/** Marks a worker's workerData as ours, so importing the worker module anywhere else does nothing. */
export const workerRole = 'fieldassist-extract';

/** What a worker posts back: each page as soon as it is read, then done or error. */
export type WorkerMessage =
  | { type: 'page'; page: PageText }
  | { type: 'done' }
  | { type: 'error'; code: ErrorCode | null; message: string };
