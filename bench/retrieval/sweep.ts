/**
 * bench/retrieval/sweep.ts: tries ranking weights and relevance thresholds on the tuned questions
 * without a server, from the candidates the retrieval finds (findCandidates: the full-text
 * features, the coverage, the embedding's cosine), so one pass over the database serves every
 * setting. Needs a database that run.ts has ingested and embedded with --keep-db.
 *
 *   npx tsx bench/retrieval/sweep.ts --db fa_retrieval [--cached] [--fit]
 *
 * Tuned questions only: the held-out ones are never read. Prints hit@1, hit@5 and MRR@5 of the
 * ranking (its first five distinct pages, as run.ts's ranking figures) with today's weights
 * (rank.ts), and the abstention figures over a grid of thresholds. With --fit, fits the weights
 * of the fused score by coordinate ascent on MRR@5, in 5-fold cross-validation (fitted on four
 * fifths of the questions, scored on the fifth), then on all of them: the cross-validated figure
 * is the one to trust. --cached reuses the candidates of the last pass (.cache/sweep-candidates.json).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  fuseScores,
  HEADING_WEIGHT,
  LISTING_PENALTY,
  type LexicalFeatures,
  PHRASE_WEIGHT,
  PROXIMITY_WEIGHT,
  RELEVANT_COVERAGE,
  RELEVANT_COVERAGE_WITH_SEMANTIC,
  RELEVANT_SEMANTIC,
  RELEVANT_WORDS_WITH_SEMANTIC,
  SEMANTIC_WEIGHT,
  TITLE_WEIGHT,
} from '../../apps/server/src/product/retrieval/rank.js';
import { findCandidates } from '../../apps/server/src/product/retrieval/retrieve.js';
import { openKeptDatabase } from './kept-database.js';
import { CACHE_DIR } from './manuals.js';
import type { Question } from './score.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'fa_retrieval' },
    cached: { type: 'boolean', default: false },
    fit: { type: 'boolean', default: false },
  },
});
const cacheFile = `${CACHE_DIR}sweep-candidates.json`;

interface Candidate {
  page: string;
  features: LexicalFeatures;
  semantic: number | undefined;
  listing: boolean;
}
interface Asked {
  q: Question;
  candidates: Candidate[];
}

async function findAll(): Promise<Asked[]> {
  const { pool, embedder, tuned, pageOf, close } = await openKeptDatabase(args.db);
  const asked: Asked[] = [];
  for (const q of tuned) {
    const candidates = await findCandidates({ pool, embedder }, { question: q.question, role: 'technician' });
    asked.push({
      q,
      candidates: candidates.map((c) => ({
        page: pageOf(c.row),
        features: c.features,
        semantic: c.semantic,
        listing: c.listing,
      })),
    });
  }
  await close();
  await writeFile(cacheFile, JSON.stringify(asked));
  return asked;
}

const asked: Asked[] = args.cached ? JSON.parse(await readFile(cacheFile, 'utf8')) : await findAll();

/** The weights of the fused score (rank.ts): the full-text features', then the cosine's. */
type Weights = Record<'heading' | 'title' | 'proximity' | 'phrases' | 'semantic' | 'listing', number>;
const today: Weights = {
  heading: HEADING_WEIGHT,
  title: TITLE_WEIGHT,
  proximity: PROXIMITY_WEIGHT,
  phrases: PHRASE_WEIGHT,
  semantic: SEMANTIC_WEIGHT,
  listing: LISTING_PENALTY,
};

function rank(candidates: Candidate[], w: Weights) {
  const lexical = (f: LexicalFeatures) =>
    f.coverage + w.heading * f.heading + w.title * f.title + w.proximity * f.proximity + w.phrases * f.phrases;
  return fuseScores(
    candidates.map((c) => ({ ...c, row: c, lexical: lexical(c.features), coverage: c.features.coverage })),
    w,
  );
}

function rankingFigures(questions: Asked[], w: Weights) {
  let hit1 = 0,
    hit5 = 0,
    mrr = 0,
    n = 0;
  for (const { q, candidates } of questions) {
    if (q.manual === null) continue;
    n++;
    const pages = [...new Set(rank(candidates, w).map((c) => c.row.page))].slice(0, 5);
    const at = pages.findIndex((page) => q.pages.some((p) => page === `${q.manual}:${p}`));
    if (at === 0) hit1++;
    if (at >= 0) {
      hit5++;
      mrr += 1 / (at + 1);
    }
  }
  return { hit1: hit1 / n, hit5: hit5 / n, mrr: mrr / n };
}

function abstention(
  w: Weights,
  coverage: number,
  semantic: number,
  coverageWithSemantic: number,
  wordsWithSemantic: number,
) {
  let answerable = 0,
    wrong = 0,
    unanswerable = 0,
    abstained = 0;
  for (const { q, candidates } of asked) {
    const top = rank(candidates, w)[0];
    const relevant =
      !!top &&
      (top.features.coverage >= coverage ||
        (top.semantic !== undefined &&
          top.semantic >= semantic &&
          top.features.coverage >= coverageWithSemantic &&
          top.features.wordCoverage >= wordsWithSemantic));
    if (q.manual === null) {
      unanswerable++;
      if (!relevant) abstained++;
    } else {
      answerable++;
      if (!relevant) wrong++;
    }
  }
  return { recall: abstained / unanswerable, wrong: wrong / answerable };
}

const grid = [0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6];
/** Coordinate ascent on MRR@5 (then hit@1) from today's weights, a few rounds over the grid. */
function fit(questions: Asked[]): Weights {
  const w = { ...today };
  const value = (x: Weights) => {
    const r = rankingFigures(questions, x);
    return r.mrr + 0.01 * r.hit1;
  };
  let best = value(w);
  for (let round = 0; round < 3; round++)
    for (const key of Object.keys(w) as (keyof Weights)[])
      for (const v of grid) {
        const tried = { ...w, [key]: v };
        const got = value(tried);
        if (got > best + 1e-9) {
          best = got;
          w[key] = v;
        }
      }
  return w;
}

const format = (r: ReturnType<typeof rankingFigures>) =>
  `hit@1 ${r.hit1.toFixed(3)}, hit@5 ${r.hit5.toFixed(3)}, MRR@5 ${r.mrr.toFixed(3)}`;
console.log(`today's weights ${JSON.stringify(today)}: ${format(rankingFigures(asked, today))}`);

for (const listing of [0, 0.1, 0.3, 1])
  console.log(
    `contents and index pages held back by ${listing}: ${format(rankingFigures(asked, { ...today, listing }))}`,
  );

if (args.fit) {
  const folds = 5;
  const scored: ReturnType<typeof rankingFigures>[] = [];
  for (let k = 0; k < folds; k++) {
    const w = fit(asked.filter((_, i) => i % folds !== k));
    const r = rankingFigures(
      asked.filter((_, i) => i % folds === k),
      w,
    );
    scored.push(r);
    console.log(`fold ${k + 1}: ${JSON.stringify(w)}: held-in-fold ${format(r)}`);
  }
  const mean = (key: 'hit1' | 'hit5' | 'mrr') => scored.reduce((s, r) => s + r[key], 0) / folds;
  console.log(
    `cross-validated: hit@1 ${mean('hit1').toFixed(3)}, hit@5 ${mean('hit5').toFixed(3)}, MRR@5 ${mean('mrr').toFixed(3)}`,
  );
  const w = fit(asked);
  console.log(`fitted on all tuned questions ${JSON.stringify(w)}: ${format(rankingFigures(asked, w))}`);
}

const rows = [];
for (const c of [0.4, 0.45, 0.5, 0.55, 0.6])
  for (const s of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8])
    for (const cs of [0, 0.1, 0.15, 0.2, 0.25, 0.3])
      for (const ws of [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35])
        rows.push({
          setting: `coverage ${c}, semantic ${s}, coverage with semantic ${cs}, words with semantic ${ws}`,
          ...abstention(today, c, s, cs, ws),
        });
const current = abstention(
  today,
  RELEVANT_COVERAGE,
  RELEVANT_SEMANTIC,
  RELEVANT_COVERAGE_WITH_SEMANTIC,
  RELEVANT_WORDS_WITH_SEMANTIC,
);
console.log(`\nabstention today: recall ${current.recall.toFixed(3)}, wrongly ${current.wrong.toFixed(3)}`);
for (const r of rows
  .filter((x) => x.wrong <= 0.03)
  .sort((a, b) => b.recall - a.recall || a.wrong - b.wrong)
  .slice(0, 8))
  console.log(`${r.setting}: recall ${r.recall.toFixed(3)}, wrongly ${r.wrong.toFixed(3)}`);
