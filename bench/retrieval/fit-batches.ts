/**
 * bench/retrieval/fit-batches.ts: do rank.ts's hand-set weights generalise to questions written
 * later? Leave-one-batch-out over the tuned questions' batches (the original questions, then
 * fresh, fresh2, fresh3, fresh4, fresh5: bench/README.md), each batch scored with today's weights and with
 * weights fitted on the other batches (and, as a bound, on itself), then all the weights fitted on
 * every batch.
 *
 *   npx tsx bench/retrieval/fit-batches.ts --db <kept db> [--cached] [--l2 0.1]
 *
 * Two fits, both from today's weights, every weight of RankWeights (lexicalScore, fuseScores,
 * bringOpeningsForward), none below 0:
 * - pairwise: a pairwise logistic loss over the fused order with openings brought forward, each
 *   question's best right page against each wrong page (a page scored by its best chunk), summed per question and averaged, plus --l2 times the
 *   squared distance to today's weights; minimised by pattern search (a step up and down each
 *   weight, the step halved when none helps). Smoother than the figures themselves.
 * - ascent: coordinate ascent on MRR@5 over a grid of values (then hit@1).
 * The figures are those of run.ts's ranking: no page when the relevance decision abstains
 * (answersQuestion over the fused order), and the openings brought forward. Tuned questions only.
 */
import { parseArgs } from 'node:util';
import {
  bringEntriesForward,
  bringOpeningsForward,
  holdBackOtherManuals,
  RANK_WEIGHTS,
  type RankWeights,
} from '../../apps/server/src/product/retrieval/rank.js';
import { type Asked, fuse, isRight, loadCandidates, rankedPages, rankingFigures } from './candidates.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'fa_retrieval' },
    cached: { type: 'boolean', default: false },
    l2: { type: 'string', default: '0.1' },
  },
});
const asked = await loadCandidates(args.db, args.cached);
const l2 = Number(args.l2);
const keys = Object.keys(RANK_WEIGHTS) as (keyof RankWeights)[];

/** Each batch's first question number per group (bench/README.md, "Branch fresh*"): before the first, the original questions. */
const BATCH_STARTS: Record<string, number[]> = {
  avrdude: [53, 63, 73, 83, 93],
  sdcc: [61, 71, 81, 91, 101],
  ngspice: [49, 59, 69, 79, 89],
  none: [36, 46, 56, 66, 76],
};
const BATCHES = ['original', 'fresh', 'fresh2', 'fresh3', 'fresh4', 'fresh5'];
function batchOf(id: string): string {
  const [, group, number] = /^(.*)-(\d+)$/.exec(id)!;
  return BATCHES[BATCH_STARTS[group!]!.filter((start) => Number(number) >= start).length]!;
}

/** A gap in score this small between two pages counts as an even pair. */
const TEMPERATURE = 0.1;

function pairwiseLoss(questions: Asked[], w: RankWeights): number {
  let loss = 0;
  for (const { q, candidates } of questions) {
    if (q.manual === null) continue;
    const pageScores = new Map<string, number>();
    for (const c of bringOpeningsForward(bringEntriesForward(holdBackOtherManuals(fuse(candidates, w), w), w), w))
      if (!pageScores.has(c.row.page)) pageScores.set(c.row.page, c.score);
    const right = [...pageScores].filter(([page]) => isRight(q, page)).map(([, score]) => score);
    if (!right.length) continue;
    const best = Math.max(...right);
    for (const [page, score] of pageScores)
      if (!isRight(q, page)) loss += Math.log1p(Math.exp((score - best) / TEMPERATURE));
  }
  const pull = keys.reduce((sum, k) => sum + (w[k] - RANK_WEIGHTS[k]) ** 2, 0);
  return loss / questions.length + l2 * pull;
}

function fitPairwise(questions: Asked[]): RankWeights {
  const w = { ...RANK_WEIGHTS };
  let best = pairwiseLoss(questions, w);
  for (let step = 0.2; step >= 0.005; step /= 2) {
    let improved = true;
    while (improved) {
      improved = false;
      for (const k of keys)
        for (const v of [w[k] + step, w[k] - step]) {
          if (v < 0) continue;
          const tried = { ...w, [k]: v };
          const got = pairwiseLoss(questions, tried);
          if (got < best - 1e-9) {
            best = got;
            w[k] = v;
            improved = true;
          }
        }
    }
  }
  return w;
}

const grid = [0, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 4];
function fitAscent(questions: Asked[]): RankWeights {
  const w = { ...RANK_WEIGHTS };
  const value = (x: RankWeights) => {
    const r = rankingFigures(questions, x);
    return r.mrr + 0.01 * r.hit1;
  };
  let best = value(w);
  for (let round = 0; round < 3; round++)
    for (const k of keys)
      for (const v of grid) {
        const got = value({ ...w, [k]: v });
        if (got > best + 1e-9) {
          best = got;
          w[k] = v;
        }
      }
  return w;
}

/** Ranking figures, then how many answerable questions it abstains on and how many unanswerable ones it refuses. */
function figures(questions: Asked[], w: RankWeights): string {
  const r = rankingFigures(questions, w);
  const answered = questions.map(({ q, candidates }) => ({ q, refused: rankedPages(candidates, w).length === 0 }));
  const wrongly = answered.filter((a) => a.q.manual !== null && a.refused).length;
  const unanswerable = answered.filter((a) => a.q.manual === null);
  const refused = unanswerable.filter((a) => a.refused).length;
  return `${r.hit1.toFixed(2)} / ${r.hit5.toFixed(2)} / ${r.mrr.toFixed(2)}, wrongly ${wrongly}, refused ${refused} of ${unanswerable.length}`;
}

const round = (w: RankWeights) => Object.fromEntries(keys.map((k) => [k, Number(w[k].toFixed(3))]));
const fitted: Record<string, Record<string, RankWeights>> = { pairwise: {}, ascent: {} };
console.log(`pairwise loss: temperature ${TEMPERATURE}, l2 ${l2}`);
console.log(
  '| batch (answerable + not) | right page among candidates | hand hit@1 / hit@5 / MRR@5 | fitted elsewhere, pairwise | fitted elsewhere, ascent | fitted on the batch itself, pairwise |',
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const batch of BATCHES) {
  const inside = asked.filter((a) => batchOf(a.q.id) === batch);
  const outside = asked.filter((a) => batchOf(a.q.id) !== batch);
  fitted.pairwise![batch] = fitPairwise(outside);
  fitted.ascent![batch] = fitAscent(outside);
  const answerable = inside.filter((a) => a.q.manual !== null);
  // What no weight can mend: the right page is not among the candidates at all.
  const reachable = answerable.filter(({ q, candidates }) => candidates.some((c) => isRight(q, c.page))).length;
  console.log(
    `| ${batch} (${answerable.length} + ${inside.length - answerable.length}) | ${reachable} | ${figures(inside, RANK_WEIGHTS)} | ${figures(inside, fitted.pairwise![batch]!)} | ${figures(inside, fitted.ascent![batch]!)} | ${figures(inside, fitPairwise(inside))} |`,
  );
}
for (const method of ['pairwise', 'ascent']) {
  const all = method === 'pairwise' ? fitPairwise(asked) : fitAscent(asked);
  console.log(`\n${method}: weights per left-out batch, then fitted on all (in-sample ${figures(asked, all)})`);
  console.log(`| weight | hand | ${BATCHES.join(' | ')} | all |`);
  console.log(`| --- | --- | ${BATCHES.map(() => '---').join(' | ')} | --- |`);
  for (const k of keys)
    console.log(
      `| ${k} | ${RANK_WEIGHTS[k]} | ${BATCHES.map((b) => round(fitted[method]![b]!)[k]).join(' | ')} | ${round(all)[k]} |`,
    );
}
console.log(`\nhand weights, all tuned: ${figures(asked, RANK_WEIGHTS)}`);
