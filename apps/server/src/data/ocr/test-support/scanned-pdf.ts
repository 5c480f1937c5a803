import { readFile } from 'node:fs/promises';
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib';
import sharp from 'sharp';

// A scanned manual as an office scanner makes one: each page an image (here ~150 dpi, a little
// tilted, with paper grain), and no text layer. Test-only: pdf-lib is a dev dependency.

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Wraps a paragraph to lines of at most `width` characters. */
function wrap(paragraph: string, width = 80): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** One A4 page at 150 dpi (1240 x 1754) with the paragraphs set in 11-point type, as a JPEG (as scanners save them). */
async function scanPage(paragraphs: string[], tilt: number): Promise<Buffer> {
  const lines = paragraphs.flatMap((paragraph) => [...wrap(paragraph), '']);
  const text = lines
    .map(
      (line, i) =>
        `<text x="110" y="${150 + i * 34}" font-family="Liberation Serif" font-size="25" fill="#1a1a1a">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754"><rect width="1240" height="1754" fill="#fbfaf6"/>${text}</svg>`;
  const grain = {
    create: {
      width: 1240,
      height: 1754,
      channels: 3 as const,
      background: '#808080',
      noise: { type: 'gaussian' as const, mean: 128, sigma: 10 },
    },
  };
  // Raw pixels between the two steps (sharp composites last): the same image as a PNG round trip, without encoding one.
  const { data, info } = await sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: 'soft-light' }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .rotate(tilt, { background: '#fbfaf6' })
    .resize(1240, 1754, { fit: 'fill' })
    .greyscale()
    .jpeg({ quality: 70 })
    .toBuffer();
}

// A page scanned once is kept for later scans of it in this process (a second or so of image work each).
const scans = new Map<string, Promise<Buffer>>();
function scanOnce(paragraphs: string[], tilt: number): Promise<Buffer> {
  const key = JSON.stringify([paragraphs, tilt]);
  let scan = scans.get(key);
  if (!scan) scans.set(key, (scan = scanPage(paragraphs, tilt)));
  return scan;
}

/** A PDF whose pages are scans of `pages` (each a list of paragraphs): images only, no text layer. */
export async function makeScannedPdf(pages: string[][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const [i, paragraphs] of pages.entries()) {
    const image = await pdf.embedJpg(await scanOnce(paragraphs, i % 2 === 0 ? 0.6 : -0.4));
    pdf.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return Buffer.from(await pdf.save());
}

/**
 * A scan whose image is JPEG 2000, as archive.org-style scans usually are: one line of text,
 * "Part PN-3390-K", on a 600 x 90 page. pdf-lib cannot embed JPEG 2000, so the image XObject is
 * written as it is (/JPXDecode). scan-line.jp2 (2.6 KB) was made once with ImageMagick:
 *   convert -size 600x90 xc:white -font DejaVu-Sans -pointsize 40 -fill black -gravity center \
 *     -annotate +0+0 'Part PN-3390-K' -colorspace Gray -depth 8 -quality 40 scan-line.jp2
 */
export async function makeJpxScanPdf(): Promise<Buffer> {
  const jp2 = await readFile(new URL('./scan-line.jp2', import.meta.url));
  const [width, height] = [600, 90];
  const pdf = await PDFDocument.create();
  const image = pdf.context.register(
    pdf.context.stream(jp2, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: width,
      Height: height,
      Filter: 'JPXDecode',
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
    }),
  );
  const page = pdf.addPage([width, height]);
  const name = page.node.newXObject('Scan', image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(width, 0, 0, height, 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
  return Buffer.from(await pdf.save());
}
