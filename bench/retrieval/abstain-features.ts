/**
 * What decideRelevance reads of each tuned question's best candidate (coverage, word coverage, the
 * share lacking from the library, cosine), whether it answers, and where the right page ranks:
 *
 *   npx tsx bench/retrieval/abstain-features.ts <database kept by run.ts --keep-db> <out.json>
 *
 * Tuned questions only; the held-out ones are never read (bench/README.md, branch abstain2).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createPool } from '../../apps/server/src/db/pool.js';
import { createEmbedder } from '../../apps/server/src/product/retrieval/embedder.js';
import { decideRelevance, fuseScores } from '../../apps/server/src/product/retrieval/rank.js';
import { findCandidates } from '../../apps/server/src/product/retrieval/retrieve.js';
import type { Question } from './score.js';

const db = process.argv[2]!;
const url = new URL('postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${db}`;
const pool = createPool(url.toString(), 10);
const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
const { questions } = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as {
  questions: Question[];
};
const { rows: manuals } = await pool.query<{ id: string; file_name: string }>('SELECT id, file_name FROM manuals');
const nameOf = new Map(manuals.map((m) => [m.id, m.file_name.replace(/\.pdf$/, '')]));
const out = [];
for (const q of questions.filter((x) => x.split === 'tuned')) {
  const ranked = fuseScores(await findCandidates({ pool, embedder }, { question: q.question, role: 'technician' }));
  const top = ranked[0];
  const pages = [...new Set(ranked.map((c) => `${nameOf.get(c.row.manual_id)}:${c.row.page_number}`))];
  const at = q.manual ? pages.findIndex((p) => q.pages.some((x) => p === `${q.manual}:${x}`)) : -1;
  out.push({
    id: q.id,
    answerable: q.manual !== null,
    relevant: decideRelevance(top),
    rightAt: at,
    n: ranked.length,
    top: top && {
      page: pages[0],
      cov: top.features.coverage,
      word: top.features.wordCoverage,
      lacking: top.features.lacking,
      cos: top.semantic,
      best: top.features.bestSentence,
      title: top.features.title,
    },
    q: q.question,
  });
}
await embedder.close();
await pool.end();
await writeFile(process.argv[3]!, JSON.stringify(out, null, 1));
