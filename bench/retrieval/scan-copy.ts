import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { ensurePoppler } from '../extract/tools.js';

/**
 * A scanned copy of a PDF, as an office scanner makes one of the printed manual: each page
 * rendered grey at 150 dpi by poppler's pdftoppm (pdf.js in Node draws no text glyphs here, only
 * images), saved as a JPEG and put back into a PDF of images only, with no text layer.
 */
export async function scanCopy(bytes: Uint8Array, log: (message: string) => void): Promise<Buffer> {
  await ensurePoppler(log);
  const folder = await mkdtemp(join(tmpdir(), 'fieldassist-scan-copy-'));
  try {
    await writeFile(join(folder, 'source.pdf'), bytes);
    await promisify(execFile)(
      'pdftoppm',
      ['-r', '150', '-gray', '-jpeg', '-jpegopt', 'quality=70', join(folder, 'source.pdf'), join(folder, 'page')],
      { maxBuffer: 1 << 20 },
    );
    const pages = (await readdir(folder)).filter((name) => name.startsWith('page-')).sort();
    const copy = await PDFDocument.create();
    for (const name of pages) {
      const image = await copy.embedJpg(await readFile(join(folder, name)));
      const width = (image.width * 72) / 150;
      const height = (image.height * 72) / 150;
      copy.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
    }
    return Buffer.from(await copy.save());
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
