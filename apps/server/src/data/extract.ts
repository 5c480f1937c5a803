import type { PageText } from './chunk.js';
import { createWorkerPool, type ExtractLimits } from './extract-pool.js';
import { detectKind, type DocumentFile, type DocumentKind } from './sniff.js';

export type { DocumentFile, DocumentKind } from './sniff.js';
export type { ExtractLimits } from './extract-pool.js';

export interface ExtractedDocument {
  kind: DocumentKind;
  /** Pages that have text, in order; Word and text files are one page. */
  pages: PageText[];
}

export interface Extractor {
  /**
   * Reads the text of a PDF, DOCX, DOC or TXT file in a worker thread. The kind comes from
   * the bytes. Throws ApiError: UNSUPPORTED_FILE_TYPE (400), EMPTY_DOCUMENT,
   * DOCUMENT_ENCRYPTED, NO_TEXT_LAYER, UNREADABLE_DOCUMENT, DOCUMENT_TOO_COMPLEX (422),
   * SERVICE_UNAVAILABLE (503, too many waiting).
   */
  extractDocument(file: DocumentFile): Promise<ExtractedDocument>;
  /** Stops running extractions and refuses new ones (server shutdown). */
  close(): Promise<void>;
}

/** The extraction function services receive as a dependency (e.g. `extractor.extractDocument`). */
export type ExtractDocument = Extractor['extractDocument'];

export const defaultExtractLimits: ExtractLimits = { concurrency: 1, timeoutMs: 60_000, maxMemoryMb: 512, maxQueued: 100 };

/**
 * The document extractor of one server process: one bounded pool shared by the data routes
 * and manual ingestion, so extraction never takes more than `concurrency` cores.
 */
export function createExtractor(limits: Partial<ExtractLimits> = {}): Extractor {
  const pool = createWorkerPool({ ...defaultExtractLimits, ...limits });
  return {
    async extractDocument(file) {
      const kind = await detectKind(file);
      const pages = await pool.run({ kind, bytes: file.bytes });
      return { kind, pages };
    },
    close: () => pool.close(),
  };
}
