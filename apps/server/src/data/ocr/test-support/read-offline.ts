// Reads one photo with the OCR pool and prints its text: run by ocr.test.ts in a network
// namespace of its own (unshare -rn), to prove nothing is fetched at run time.
import { readFile } from 'node:fs/promises';
import { createOcr } from '../index.js';

const ocr = createOcr();
try {
  process.stdout.write(JSON.stringify({ text: await ocr.readPhoto(await readFile(process.argv[2]!)) }));
} finally {
  await ocr.close();
}
