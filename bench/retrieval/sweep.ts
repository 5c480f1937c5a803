/**
 * bench/retrieval/sweep.ts: tries ranking weights on the tuned questions
 * without a server, from the candidates the retrieval finds (candidates.ts), so one pass over the
 * database serves every setting. Needs a database that run.ts has ingested and embedded with --keep-db.
 *
 *   npx tsx bench/retrieval/sweep.ts --db fa_retrieval [--cached]
 *
 * Tuned questions only: the held-out ones are never read. Prints hit@1, hit@5 and MRR@5 of the
 * ranking (its first five distinct pages, as run.ts's ranking figures) with today's weights
 * (rank.ts) and the contents and index pages' penalty varied. Fitting the weights is
 * fit-batches.ts's; the relevance decision's, abstain-fit.ts's. --cached reuses the candidates of the last pass (.cache/sweep-candidates.json).
 */
import { parseArgs } from 'node:util';
import { RANK_WEIGHTS } from '../../apps/server/src/product/retrieval/rank.js';
import { formatRanking, loadCandidates, rankingFigures } from './candidates.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'fa_retrieval' },
    cached: { type: 'boolean', default: false },
  },
});
const asked = await loadCandidates(args.db, args.cached);
const today = RANK_WEIGHTS;

console.log(`today's weights ${JSON.stringify(today)}: ${formatRanking(rankingFigures(asked, today))}`);

for (const listing of [0, 0.1, 0.3, 1])
  console.log(
    `contents and index pages held back by ${listing}: ${formatRanking(rankingFigures(asked, { ...today, listing }))}`,
  );
