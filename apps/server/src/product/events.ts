import { EventEmitter } from 'node:events';

/** What product services announce; the realtime module relays it to the right channels. */
export interface ProductEvents {
  'manual.status': [
    {
      manualId: string;
      status: 'pending' | 'processing' | 'ready' | 'failed';
      error: string | null;
      pageCount: number | null;
    },
  ];
  /** Scanned pages read by OCR so far during ingestion ("Reading scanned pages: 37 of 120"). */
  'manual.progress': [{ manualId: string; scannedPagesRead: number; scannedPages: number }];
  /** Chunks of a manual embedded so far for semantic search (background indexing after ingestion). */
  'manual.indexing': [{ manualId: string; embedded: number; total: number }];
}

export type ProductEventBus = EventEmitter<ProductEvents>;

export function createProductEvents(): ProductEventBus {
  return new EventEmitter<ProductEvents>();
}
