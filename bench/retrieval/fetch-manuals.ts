/**
 * Fetches bench/retrieval's manuals into bench/retrieval/.cache/ (idempotent) and prints each
 * PDF's page count as pdfinfo reads it.
 *
 *   npx tsx bench/retrieval/fetch-manuals.ts
 */
import { fetchManuals, pdfPageCount } from './manuals.js';

let total = 0;
for (const manual of await fetchManuals(undefined, (message) => console.log(`[bench/retrieval] ${message}`))) {
  const pages = await pdfPageCount(manual.path);
  total += pages;
  console.log(
    `${manual.name.padEnd(8)} ${String(pages).padStart(4)} pages  ${manual.deb}  ${manual.path}  (${manual.kind})`,
  );
}
console.log(`${'in all'.padEnd(8)} ${String(total).padStart(4)} pages`);
