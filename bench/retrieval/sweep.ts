/**
 * bench/retrieval/sweep.ts: tries ranking weights and relevance thresholds on the tuned questions
 * without a server, from the candidates the retrieval finds (candidates.ts), so one pass over the
 * database serves every setting. Needs a database that run.ts has ingested and embedded with --keep-db.
 *
 *   npx tsx bench/retrieval/sweep.ts --db fa_retrieval [--cached]
 *
 * Tuned questions only: the held-out ones are never read. Prints hit@1, hit@5 and MRR@5 of the
 * ranking (its first five distinct pages, as run.ts's ranking figures) with today's weights
 * (rank.ts), and the abstention figures over a grid of thresholds. Fitting the weights is
 * fit-batches.ts's. --cached reuses the candidates of the last pass (.cache/sweep-candidates.json).
 */
import { parseArgs } from 'node:util';
import {
  RANK_WEIGHTS,
  RELEVANT_COVERAGE,
  RELEVANT_COVERAGE_WITH_SEMANTIC,
  RELEVANT_SEMANTIC,
  RELEVANT_WORDS_WITH_SEMANTIC,
} from '../../apps/server/src/product/retrieval/rank.js';
import { formatRanking, fuse, loadCandidates, rankingFigures } from './candidates.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'fa_retrieval' },
    cached: { type: 'boolean', default: false },
  },
});
const asked = await loadCandidates(args.db, args.cached);
const today = RANK_WEIGHTS;

// The best candidate of each question under today's weights: the thresholds below do not move it.
const tops = asked.map(({ q, candidates }) => ({ q, top: fuse(candidates, today)[0] }));

function abstention(coverage: number, semantic: number, coverageWithSemantic: number, wordsWithSemantic: number) {
  let answerable = 0,
    wrong = 0,
    unanswerable = 0,
    abstained = 0;
  for (const { q, top } of tops) {
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

console.log(`today's weights ${JSON.stringify(today)}: ${formatRanking(rankingFigures(asked, today))}`);

for (const listing of [0, 0.1, 0.3, 1])
  console.log(
    `contents and index pages held back by ${listing}: ${formatRanking(rankingFigures(asked, { ...today, listing }))}`,
  );

const rows = [];
for (const c of [0.4, 0.45, 0.5, 0.55, 0.6])
  for (const s of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8])
    for (const cs of [0, 0.1, 0.15, 0.2, 0.25, 0.3])
      for (const ws of [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35])
        rows.push({
          setting: `coverage ${c}, semantic ${s}, coverage with semantic ${cs}, words with semantic ${ws}`,
          ...abstention(c, s, cs, ws),
        });
const current = abstention(
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
