/**
 * Renders bench/ocr's test set into bench/ocr/photos/: one JPEG per case of photo-set.ts and
 * expected.json (the identifiers and the manual of each photo).
 *
 *   npx tsx bench/ocr/make-photos.ts
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { renderPhoto } from '../../apps/server/src/data/ocr/test-support/render-photo.js';
import { PHOTO_CASES } from './photo-set.js';

const folder = new URL('./photos/', import.meta.url);
await mkdir(folder, { recursive: true });
for (const photo of PHOTO_CASES) await writeFile(new URL(`${photo.name}.jpg`, folder), await renderPhoto(photo.spec));
const expected = PHOTO_CASES.map(({ name, expected, manual }) => ({ file: `${name}.jpg`, expected, manual }));
await writeFile(new URL('expected.json', folder), `${JSON.stringify(expected, null, 2)}\n`);
console.log(`${PHOTO_CASES.length} photos in bench/ocr/photos/`);
