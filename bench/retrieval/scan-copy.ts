import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { getDocumentProxy } from 'unpdf';
import { renderPdfPage } from '../../apps/server/src/data/ocr/render-page.js';

/**
 * A scanned copy of a PDF, as an office scanner would make one of the printed manual: each page
 * rendered (pdf.js, as the server renders scanned pages), grey, 150 dpi, saved as a JPEG, and
 * put back into a PDF of images only, with no text layer.
 */
export async function scanCopy(bytes: Uint8Array): Promise<Buffer> {
  const source = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, verbosity: 0 });
  const pageCount = source.numPages;
  await source.destroy();
  const copy = await PDFDocument.create();
  for (let n = 1; n <= pageCount; n++) {
    const rendered = await renderPdfPage(new Uint8Array(bytes), n);
    const { width = 1, height = 1 } = await sharp(rendered).metadata();
    // Rendered at 216 dpi; the scan keeps 150 dpi, the usual setting for documents.
    const scan = await sharp(rendered).flatten({ background: '#ffffff' }).greyscale().resize({ width: Math.round((width * 150) / 216) }).jpeg({ quality: 70 }).toBuffer();
    const image = await copy.embedJpg(scan);
    copy.addPage([(width * 72) / 216, (height * 72) / 216]).drawImage(image, { x: 0, y: 0, width: (width * 72) / 216, height: (height * 72) / 216 });
  }
  return Buffer.from(await copy.save());
}
