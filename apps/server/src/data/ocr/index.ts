import { createWorkerPool, type ExtractLimits } from '../extract-pool.js';

export type OcrLimits = ExtractLimits;

/** A photo's text waits at most a few pages in line; the pool has its own slots, apart from document extraction. */
export const defaultOcrLimits: OcrLimits = { concurrency: 1, timeoutMs: 30_000, maxMemoryMb: 512, maxQueued: 100 };

export interface Ocr {
  /**
   * The text of a photo (a nameplate, a label, an error display), line by line; '' when it
   * holds no readable text. Throws UNSUPPORTED_FILE_TYPE (not an image), DOCUMENT_TOO_COMPLEX
   * (time or memory limit), SERVICE_UNAVAILABLE (too many waiting).
   */
  readPhoto(bytes: Uint8Array): Promise<string>;
  /** The text of page `page` of a PDF, rendered and read by OCR; '' for a blank page. Throws as readPhoto. */
  readScannedPage(pdf: Uint8Array, page: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * OCR with tesseract.js in the same kind of bounded worker pool as extraction (one job per
 * photo or page, each with a time limit and each worker with a memory limit), so reading
 * images never runs on the request thread and never takes more than `concurrency` cores.
 */
export function createOcr(limits: Partial<OcrLimits> = {}): Ocr {
  const pool = createWorkerPool({ ...defaultOcrLimits, ...limits });
  const textOf = ({ pages }: { pages: { text: string }[] }) => pages[0]?.text ?? '';
  return {
    readPhoto: async (bytes) => textOf(await pool.run({ kind: 'image', bytes })),
    readScannedPage: async (pdf, page) => textOf(await pool.run({ kind: 'pdf-page', bytes: pdf, page })),
    close: () => pool.close(),
  };
}
