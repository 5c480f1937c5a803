import { getDocumentProxy, renderPageAsImage } from 'unpdf';

// 72 dpi x 3 = 216 dpi: enough for 9-point print; an A4 page is about 1,800 x 2,500 px.
const scale = 3;
// A page larger than A3 is rendered no wider than this, so one page never takes more than ~60 MB.
const maxWidth = 3500;

/** Renders one page of a PDF to a PNG with pdf.js and @napi-rs/canvas (runs inside a worker). */
export async function renderPdfPage(bytes: Uint8Array, pageNumber: number): Promise<Buffer> {
  // CVE-2024-4367: pdf.js must not compile font code with eval/new Function.
  const pdf = await getDocumentProxy(bytes, { isEvalSupported: false, verbosity: 0 });
  try {
    const page = await pdf.getPage(pageNumber);
    const { width } = page.getViewport({ scale: 1 });
    page.cleanup();
    const png = await renderPageAsImage(pdf, pageNumber, { canvasImport: () => import('@napi-rs/canvas'), scale: Math.min(scale, maxWidth / width) });
    return Buffer.from(png);
  } finally {
    await pdf.destroy();
  }
}
