import type * as PdfjsModule from 'pdfjs-dist';
import type { PDFDocumentLoadingTask } from 'pdfjs-dist';

export type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | undefined;

/** pdf.js, imported on first use; its worker is a file of its own, started by pdf.js. */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(
    ([pdfjs, worker]) => {
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      return pdfjs;
    },
  );
  // A failed download (offline) may be tried again.
  loading.catch(() => (loading = undefined));
  return loading;
}

// 64 KB ranges: a page of a long manual costs a few requests, not the whole file.
const RANGE_CHUNK_BYTES = 64 * 1024;

/**
 * Starts loading the PDF at `url` (a stored file: the capability URL the library links to).
 * pdf.js asks for byte ranges and fetches nothing it does not need for the pages drawn.
 */
export function openPdf(pdfjs: Pdfjs, url: string): PDFDocumentLoadingTask {
  return pdfjs.getDocument({
    url,
    rangeChunkSize: RANGE_CHUNK_BYTES,
    disableAutoFetch: true,
    disableStream: true,
    // Copied there by the build (vite.config.ts). Without the wasm decoders, a scan's JPEG 2000
    // or JBIG2 images are drawn as blank pages.
    wasmUrl: '/pdfjs/wasm/',
    standardFontDataUrl: '/pdfjs/standard_fonts/',
    cMapUrl: '/pdfjs/cmaps/',
  });
}

/** The technician's words for why a PDF did not open. */
export function pdfProblem(pdfjs: Pdfjs | undefined, error: unknown): string {
  if (pdfjs && error instanceof pdfjs.InvalidPDFException)
    return 'This file is not a readable PDF. Download it to open it in another app.';
  // pdf.js 5 does not export PasswordException; its errors carry their class's name.
  if (error instanceof Error && error.name === 'PasswordException')
    return 'This PDF is protected by a password. Download it to open it in another app.';
  if (pdfjs && error instanceof pdfjs.ResponseException && error.status === 404)
    return "The manual's file could not be found.";
  return 'The manual could not be loaded. Check your connection and try again.';
}
