import { ApiError } from '../errors.js';
import type { PageText } from './chunk.js';
import { createWorkerPool, type ExtractLimits } from './extract-pool.js';
import type { Ocr } from './ocr/index.js';
import { detectKind, type DocumentFile, type DocumentKind } from './sniff.js';

export type { DocumentFile, DocumentKind } from './sniff.js';
export type { ExtractLimits } from './extract-pool.js';

export interface ExtractedDocument {
  kind: DocumentKind;
  /** Pages that have text, in order; Word and text files are one page. */
  pages: PageText[];
  /** A PDF's pages with (almost) no text layer: scanned pages, in order. */
  scannedPages: number[];
  /** The scanned pages whose text was read by OCR (readScans only), in order. */
  ocrPages: number[];
}

/** How far the OCR of a document's scanned pages has come. */
export interface ScanProgress {
  done: number;
  total: number;
}

export interface ExtractOptions {
  /** Reads PDF pages without a text layer by OCR (page by page, in the OCR pool) instead of refusing the document. */
  readScans?: { onProgress?: (progress: ScanProgress) => void };
}

export interface Extractor {
  /**
   * Reads the text of a PDF, DOCX, DOC or TXT file in a worker thread. The kind comes from
   * the bytes. Throws ApiError: UNSUPPORTED_FILE_TYPE (400), EMPTY_DOCUMENT,
   * DOCUMENT_ENCRYPTED, NO_TEXT_LAYER, UNREADABLE_DOCUMENT, DOCUMENT_TOO_COMPLEX (422),
   * SERVICE_UNAVAILABLE (503, too many waiting).
   */
  extractDocument(file: DocumentFile, options?: ExtractOptions): Promise<ExtractedDocument>;
  /** Stops running extractions and refuses new ones (server shutdown). */
  close(): Promise<void>;
}

/** The extraction function services receive as a dependency (e.g. `extractor.extractDocument`). */
export type ExtractDocument = Extractor['extractDocument'];

export const defaultExtractLimits: ExtractLimits = {
  concurrency: 1,
  timeoutMs: 60_000,
  maxMemoryMb: 512,
  maxQueued: 100,
};

/**
 * The document extractor of one server process: one bounded pool shared by the data routes
 * and manual ingestion, so extraction never takes more than `concurrency` cores. Scanned
 * pages go to `ocr` one at a time, each a job of its own with its own time limit.
 */
export function createExtractor(limits: Partial<ExtractLimits> = {}, ocr?: Ocr): Extractor {
  const pool = createWorkerPool({ ...defaultExtractLimits, ...limits });
  return {
    async extractDocument(file, options = {}) {
      const kind = await detectKind(file);
      const readScans = Boolean(options.readScans && ocr);
      const { pages, scans } = await pool.run({ kind, bytes: file.bytes, readScans });
      if (!readScans || scans.length === 0) return { kind, pages, scannedPages: scans, ocrPages: [] };
      return {
        kind,
        scannedPages: scans,
        ...(await readScannedPages(ocr!, file.bytes, pages, scans, options.readScans?.onProgress)),
      };
    },
    close: () => pool.close(),
  };
}

/** OCRs the scanned pages one by one (memory stays one page's worth) and merges them into the text pages. */
async function readScannedPages(
  ocr: Ocr,
  bytes: Uint8Array,
  textPages: PageText[],
  scans: number[],
  onProgress?: (progress: ScanProgress) => void,
) {
  const byPage = new Map(textPages.map((page) => [page.page, page]));
  const ocrPages: number[] = [];
  onProgress?.({ done: 0, total: scans.length });
  for (const [i, page] of scans.entries()) {
    const text = await ocr.readScannedPage(bytes, page).catch((error: unknown) => {
      // One page too big or too slow to read costs that page, not the manual; a busy or closing pool is not the page's fault.
      if (error instanceof ApiError && error.status < 500) return '';
      throw error;
    });
    // The OCR replaces a page's scrap of text layer (a page number, a stamp) when it read more.
    if (text.length > (byPage.get(page)?.text.length ?? 0)) {
      byPage.set(page, { page, text });
      ocrPages.push(page);
    }
    onProgress?.({ done: i + 1, total: scans.length });
  }
  const pages = [...byPage.values()].sort((a, b) => a.page - b.page);
  if (pages.length === 0)
    throw new ApiError('NO_TEXT_LAYER', 'No text could be read from this PDF, not even by OCR of its scanned pages');
  return { pages, ocrPages };
}
