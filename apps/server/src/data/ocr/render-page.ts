import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// 72 dpi x 3 = 216 dpi: enough for 9-point print; an A4 page is about 1,800 x 2,500 px.
const scale = 3;
// A page larger than A3 is rendered no wider than this, so one page never takes more than ~60 MB.
const maxWidth = 3500;

// pdfjs-dist's own build, not unpdf's serverless one, which has no JPEG 2000 or JBIG2 decoders:
// scans (archive.org's especially) are often JPEG 2000, and were rendered as blank pages.
// pdf.js reads its wasm decoders, the 14 standard fonts and the CMaps from these folders.
const pdfjsDir = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const dataDirs = {
  wasmUrl: `${join(pdfjsDir, 'wasm')}/`,
  standardFontDataUrl: `${join(pdfjsDir, 'standard_fonts')}/`,
  cMapUrl: `${join(pdfjsDir, 'cmaps')}/`,
};

/** Renders one page of a PDF to a PNG with pdf.js and @napi-rs/canvas (runs inside a worker). */
export async function renderPdfPage(bytes: Uint8Array, pageNumber: number): Promise<Buffer> {
  // CVE-2024-4367: pdf.js must not compile font code with eval/new Function.
  const pdf = await getDocument({ data: bytes, ...dataDirs, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const page = await pdf.getPage(pageNumber);
    const { width } = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: Math.min(scale, maxWidth / width) });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    // @napi-rs/canvas stands in for the DOM canvas pdf.js's types name.
    await page.render({ canvas: canvas as unknown as Parameters<typeof page.render>[0]['canvas'], viewport }).promise;
    return canvas.toBuffer('image/png');
  } finally {
    await pdf.destroy();
  }
}
