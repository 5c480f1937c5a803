import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';

// Everything tesseract.js loads comes from node_modules: its worker script and wasm core are
// resolved there by tesseract.js itself, and the English model is @tesseract.js-data/eng's
// (read from disk, gzipped); cacheMethod 'none' keeps it from writing a copy into the cwd.
const require = createRequire(import.meta.url);
const tesseractMain = require.resolve('tesseract.js');
export const tesseractPaths = {
  langPath: join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int'),
  workerPath: join(dirname(tesseractMain), 'worker-script', 'node', 'index.js'),
  // Not an option in Node: the worker script requires tesseract.js-core from here (told for the tests).
  corePath: dirname(createRequire(tesseractMain).resolve('tesseract.js-core/package.json')),
};

// Words read with less confidence than this are noise (texture, glare, screws), not text.
const minWordConfidence = 35;
// A line is kept when it has a real word (3 letters or digits) or a short code (E4, F28): texture
// read as text gives scraps such as "pi", "AY" or "5".
const meaningful = (word: string) =>
  word.replace(/[^\p{L}\p{N}]/gu, '').length >= 3 || /^[A-Z]{1,2}-?\d{1,3}$/.test(word);

let engine: Promise<Worker> | undefined;

/** One tesseract engine per thread, started on first use and kept for the thread's life. */
function getEngine(): Promise<Worker> {
  engine ??= createWorker('eng', OEM.LSTM_ONLY, {
    langPath: tesseractPaths.langPath,
    workerPath: tesseractPaths.workerPath,
    gzip: true,
    cacheMethod: 'none',
  });
  return engine;
}

/**
 * The text tesseract reads in a prepared image. For a photo (`photo`), line by line, keeping only
 * the words it is reasonably sure of, so a photo without text gives '' rather than a line of stray
 * letters; for a page of print, all of it.
 */
export async function recogniseText(image: Buffer, { photo }: { photo: boolean }): Promise<string> {
  const worker = await getEngine();
  const { data } = await worker.recognize(image, {}, { text: !photo, blocks: photo });
  if (!photo) return data.text;
  const lines: string[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words
          .filter((word) => word.confidence >= minWordConfidence && /[\p{L}\p{N}]/u.test(word.text))
          .map((word) => word.text);
        if (words.some(meaningful)) lines.push(words.join(' '));
      }
    }
  }
  return lines.join('\n');
}
