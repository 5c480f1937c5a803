import sharp from 'sharp';
import { findSkew } from './deskew.js';

// Tesseract reads best with capital letters about 20-40 px tall: phone photos are scaled to this
// width (most nameplates fill a good part of the frame), small crops are enlarged to it.
const photoWidth = 1600;
// Photos bigger than this (in pixels) are refused by sharp rather than decoded: a decompression bomb.
const maxInputPixels = 50_000_000;
// Below this spread of grey levels an image is flat: a lens cap, a wall, a blank page.
const flatStdev = 4;

/**
 * Turns an image into what OCR reads best. A photo: upright by its EXIF orientation, grey,
 * scaled, contrast stretched (dim plant rooms, glare), and turned so its text lines are
 * level. A rendered page: grey, with the paper's grain smoothed; its contrast is left alone,
 * since stretching it turns the grain into specks. Undefined when the image is flat and holds
 * no text. Throws sharp's error on bytes that are not an image.
 */
export async function prepareForOcr(bytes: Uint8Array, kind: 'photo' | 'page'): Promise<Buffer | undefined> {
  const image = sharp(bytes, { limitInputPixels: maxInputPixels, failOn: 'none' }).autoOrient().greyscale();
  const prepared =
    kind === 'photo'
      ? image.resize({ width: photoWidth, fit: 'inside', kernel: 'lanczos3' }).normalise()
      : image.median(3);
  const grey = await prepared.png({ compressionLevel: 1 }).toBuffer();
  const { channels } = await sharp(grey).stats();
  if ((channels[0]?.stdev ?? 0) < flatStdev) return undefined;
  if (kind === 'page') return grey;
  const skew = await findSkew(grey);
  return skew === 0
    ? grey
    : sharp(grey).rotate(skew, { background: '#808080' }).png({ compressionLevel: 1 }).toBuffer();
}
