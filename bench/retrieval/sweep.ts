/**
 * bench/retrieval/sweep.ts: tries fusion weights and relevance thresholds on the tuned
 * questions without a server, from the candidates the retrieval finds (findCandidates: the
 * full-text score, the coverage, the embedding's cosine), so one pass over the database serves
 * every setting. Needs a database that run.ts has ingested and embedded with --keep-db.
 *
 *   npx tsx bench/retrieval/sweep.ts --db fa_retrieval [--weight 0,0.5,1,2] [--coverage 0.5] [--semantic 0.35,0.4] [--coverage-with-semantic 0.2]
 *
 * Tuned questions only: the held-out ones are never swept. Prints hit@1, hit@5, MRR@5 and the
 * abstention figures of each setting, best MRR@5 first. The figures match run.ts's (same
 * candidates, same page de-duplication of the first six passages) up to the chat's own work.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createPool } from '../../apps/server/src/db/pool.js';
import { createEmbedder } from '../../apps/server/src/product/retrieval/embedder.js';
import { findCandidates } from '../../apps/server/src/product/retrieval/retrieve.js';
import type { Question } from './score.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'fa_retrieval' },
    weight: { type: 'string', default: '0,0.5,1,1.5,2' },
    coverage: { type: 'string', default: '0.5' },
    semantic: { type: 'string', default: '0.35,0.4,0.45' },
    'coverage-with-semantic': { type: 'string', default: '0.2,0.25' },
  },
});
const list = (value: string) => value.split(',').map(Number);
const serverUrl = new URL(
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
);
serverUrl.pathname = `/${args.db}`;

const pool = createPool(serverUrl.toString(), 10);
const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
const { questions } = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as {
  questions: Question[];
};
const { rows: manuals } = await pool.query<{ id: string; file_name: string }>('SELECT id, file_name FROM manuals');
const nameOf = new Map(manuals.map((m) => [m.id, m.file_name.replace(/\.pdf$/, '')]));
const asked: {
  q: Question;
  candidates: { page: string; lexical: number; coverage: number; semantic: number | undefined }[];
}[] = [];
for (const q of questions.filter((x) => x.split === 'tuned')) {
  const candidates = await findCandidates({ pool, embedder }, { question: q.question, role: 'technician' });
  asked.push({
    q,
    candidates: candidates.map((c) => ({
      page: `${nameOf.get(c.row.manual_id)}:${c.row.page_number}`,
      lexical: c.lexical,
      coverage: c.coverage,
      semantic: c.semantic,
    })),
  });
}
await embedder.close();
await pool.end();

function evaluate(weight: number, coverage: number, semantic: number, coverageWithSemantic: number) {
  let hit1 = 0,
    hit5 = 0,
    mrr = 0,
    answerable = 0,
    wrong = 0,
    unanswerable = 0,
    abstained = 0;
  for (const { q, candidates } of asked) {
    const best = Math.max(...candidates.map((c) => c.lexical), Number.MIN_VALUE);
    const known = candidates.flatMap((c) => (c.semantic === undefined ? [] : [c.semantic]));
    const fallback = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 0;
    const ranked = candidates
      .map((c) => ({ ...c, score: c.lexical / best + weight * (c.semantic ?? fallback) }))
      .sort((a, b) => b.score - a.score);
    const top = ranked[0];
    const relevant =
      !!top &&
      (top.coverage >= coverage ||
        (top.semantic !== undefined && top.semantic >= semantic && top.coverage >= coverageWithSemantic));
    if (q.manual === null) {
      unanswerable++;
      if (!relevant) abstained++;
      continue;
    }
    answerable++;
    if (!relevant) {
      wrong++;
      continue;
    }
    const pages = [...new Set(ranked.slice(0, 6).map((c) => c.page))].slice(0, 5);
    const rank = pages.findIndex((page) => q.pages.some((p) => page === `${q.manual}:${p}`));
    if (rank === 0) hit1++;
    if (rank >= 0) {
      hit5++;
      mrr += 1 / (rank + 1);
    }
  }
  return {
    hit1: hit1 / answerable,
    hit5: hit5 / answerable,
    mrr: mrr / answerable,
    abstentionRecall: abstained / unanswerable,
    wronglyAbstained: wrong / answerable,
  };
}

const results = [];
for (const w of list(args.weight))
  for (const c of list(args.coverage))
    for (const s of list(args.semantic))
      for (const cs of list(args['coverage-with-semantic'])) {
        results.push({
          setting: `weight ${w}, coverage ${c}, semantic ${s}, coverage with semantic ${cs}`,
          ...evaluate(w, c, s, cs),
        });
      }
for (const r of results.sort((a, b) => b.mrr - a.mrr)) {
  console.log(
    `${r.setting}: hit@1 ${r.hit1.toFixed(2)}, hit@5 ${r.hit5.toFixed(2)}, MRR@5 ${r.mrr.toFixed(3)}, abstention ${r.abstentionRecall.toFixed(2)}, wrongly ${r.wronglyAbstained.toFixed(3)}`,
  );
}
