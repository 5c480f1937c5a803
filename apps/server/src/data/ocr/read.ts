import { ApiError } from '../../errors.js';
import { cleanText } from '../text-decode.js';
import { prepareForOcr } from './prepare-image.js';
import { renderPdfPage } from './render-page.js';
import { recogniseText } from './tesseract.js';

/** The text of a photo ('' when it holds none). Throws UNSUPPORTED_FILE_TYPE for bytes that are not an image. Runs inside a worker. */
export async function readImageText(bytes: Uint8Array): Promise<string> {
  const prepared = await prepareForOcr(bytes, 'photo').catch(() => {
    throw new ApiError(
      'UNSUPPORTED_FILE_TYPE',
      'The photo could not be read as an image (JPEG, PNG, WebP, GIF, HEIC or TIFF)',
    );
  });
  return prepared ? cleanText(await recogniseText(prepared, { photo: true })) : '';
}

/** The text of one scanned PDF page, rendered and read by OCR ('' for a blank page). Runs inside a worker. */
export async function readScannedPage(bytes: Uint8Array, page: number): Promise<string> {
  const rendered = await renderPdfPage(bytes, page);
  const prepared = await prepareForOcr(rendered, 'page');
  return prepared ? cleanText(await recogniseText(prepared, { photo: false })) : '';
}
