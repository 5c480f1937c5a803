/**
 * Leave-one-batch-out estimate of relevance rules (answersQuestion) on what abstain-features.ts
 * dumped for the tuned questions:
 *
 *   npx tsx bench/retrieval/abstain-fit.ts <dump.json>
 *
 * The questions came in batches written at different times (bench/README.md: original, fresh,
 * fresh2, fresh3; the original one cut in two by id). Each rule is fitted on all batches but one
 * and measured on the one left out: the share of its answerable questions abstained on and of its
 * unanswerable ones refused. A fitted rule's threshold is the lowest that refuses at least
 * RECALL (env, 0.9) of the training batches' unanswerable questions. Last, each rule fitted on
 * every batch, as it would go into rank.ts. Besides the wrongly abstained share, the share of the
 * questions whose right page is among the first five that are abstained on: hits lost.
 */
import { readFile } from 'node:fs/promises';

interface Row {
  id: string;
  answerable: boolean;
  relevant: boolean;
  /** Index of the right page among the candidates' distinct pages, -1 when absent. */
  rightAt: number;
  top?: {
    cov: number;
    word: number;
    lacking?: number;
    cos?: number;
    best: number;
    title: number;
    heading: number;
    phrases: number;
    frequency?: number;
    score: number;
    second?: number;
    fifth?: number;
  };
  /** The first five candidates (abstain-features.ts). */
  cands?: {
    page: string;
    cov: number;
    word: number;
    lacking?: number;
    cos?: number;
    best: number;
    optionEntry: boolean;
    namedManual: boolean;
    soleManual: boolean;
    relevant: boolean;
  }[];
}

const RECALL = Number(process.env.RECALL ?? 0.9);
/**
 * With FOUND=1 the logistic rules learn from the answerable questions whose right page is among the
 * first five only: answering the others gives a wrong page, refusing one of these loses a hit.
 */
const FOUND = process.env.FOUND === '1';
const found = (r: Row) => r.rightAt >= 0 && r.rightAt < 5;
const share = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : 0);

/** The batch a question was written in, by its id (bench/README.md, branches fresh, fresh2, ... fresh15). */
function batchOf(id: string): string {
  const [group, n] = [id.replace(/-\d+$/, ''), Number(id.replace(/^.*-/, ''))];
  // First id of original's second half, fresh, fresh2 and fresh3; from fresh4 on, ten ids a batch.
  const firsts: Record<string, number[]> = {
    avrdude: [27, 53, 63, 73, 83],
    sdcc: [31, 61, 71, 81, 91],
    ngspice: [25, 49, 59, 69, 79],
    none: [18, 36, 46, 56, 66],
  };
  const starts = firsts[group]!;
  const later = Array.from({ length: LATER_BATCHES - 1 }, (_, i) => starts[4]! + 10 * (i + 1));
  const names = ['original-a', 'original-b', 'fresh', 'fresh2', 'fresh3'];
  for (let i = 4; i <= 3 + LATER_BATCHES; i++) names.push(`fresh${i}`);
  return names[[...starts, ...later].filter((s) => n >= s).length]!;
}
/** Batches fresh4 to fresh15, each of ten ids per group. */
const LATER_BATCHES = 12;

type Features = (r: Row) => number[];

/** The best of the first three candidates' features, whether any names its manual or is an option's entry, and how many of the first five share the first's manual (relevanceScore in rank.ts). */
const topThree: Features = (r) => {
  const cs = r.cands!.slice(0, 3);
  const most = (of: (c: (typeof cs)[number]) => number) => Math.max(...cs.map(of));
  const manuals = r.cands!.slice(0, 5).map((c) => c.page.replace(/:.*/, ''));
  return [
    most((c) => c.cov),
    most((c) => c.word),
    most((c) => c.cos ?? 0),
    cs[0]!.lacking ?? 0,
    most((c) => c.best),
    cs.some((c) => c.namedManual || c.soleManual) ? 1 : 0,
    manuals.filter((m) => m === manuals[0]).length / manuals.length,
    cs.some((c) => c.optionEntry) ? 1 : 0,
  ];
};

const FEATURE_SETS: Record<string, { names: string[]; of: Features }> = {
  'best of three: cov word cos lacking best named agreement option': {
    names: [
      'coverage',
      'wordCoverage',
      'semantic',
      'lacking',
      'bestSentence',
      'namedManual',
      'agreement',
      'optionEntry',
    ],
    of: topThree,
  },
  'cov word cos': {
    names: ['coverage', 'wordCoverage', 'semantic'],
    of: (r) => [r.top!.cov, r.top!.word, r.top!.cos ?? 0],
  },
  'cov word cos lacking': {
    names: ['coverage', 'wordCoverage', 'semantic', 'lacking'],
    of: (r) => [r.top!.cov, r.top!.word, r.top!.cos ?? 0, r.top!.lacking ?? 0],
  },
  'cov word cos lacking best': {
    names: ['coverage', 'wordCoverage', 'semantic', 'lacking', 'bestSentence'],
    of: (r) => [r.top!.cov, r.top!.word, r.top!.cos ?? 0, r.top!.lacking ?? 0, r.top!.best],
  },
  'cov word cos lacking best margins': {
    names: ['coverage', 'wordCoverage', 'semantic', 'lacking', 'bestSentence', 'margin2', 'margin5'],
    of: (r) => {
      const t = r.top!;
      return [t.cov, t.word, t.cos ?? 0, t.lacking ?? 0, t.best, t.score - (t.second ?? 0), t.score - (t.fifth ?? 0)];
    },
  },
  'cov word cos lacking best heading phrases': {
    names: ['coverage', 'wordCoverage', 'semantic', 'lacking', 'bestSentence', 'heading', 'phrases'],
    of: (r) => {
      const t = r.top!;
      return [t.cov, t.word, t.cos ?? 0, t.lacking ?? 0, t.best, t.heading, t.phrases];
    },
  },
  'all + margins': {
    names: [
      'coverage',
      'wordCoverage',
      'semantic',
      'lacking',
      'bestSentence',
      'heading',
      'phrases',
      'margin2',
      'margin5',
    ],
    of: (r) => {
      const t = r.top!;
      return [
        t.cov,
        t.word,
        t.cos ?? 0,
        t.lacking ?? 0,
        t.best,
        t.heading,
        t.phrases,
        t.score - (t.second ?? 0),
        t.score - (t.fifth ?? 0),
      ];
    },
  },
};

/** L2-regularised logistic regression by gradient descent on standardised features; returns raw-scale weights and bias. */
function fitLogistic(xs: number[][], ys: number[], l2 = 0.01): { w: number[]; b: number } {
  const d = xs[0]!.length;
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + x[j]!, 0) / xs.length);
  const sd = mean.map((m, j) => Math.sqrt(xs.reduce((s, x) => s + (x[j]! - m) ** 2, 0) / xs.length) || 1);
  const zs = xs.map((x) => x.map((v, j) => (v - mean[j]!) / sd[j]!));
  const w = new Array<number>(d).fill(0);
  let b = 0;
  for (let step = 0; step < 4000; step++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    zs.forEach((z, i) => {
      const p = 1 / (1 + Math.exp(-(b + z.reduce((s, v, j) => s + v * w[j]!, 0))));
      const e = p - ys[i]!;
      z.forEach((v, j) => (gw[j]! += e * v));
      gb += e;
    });
    for (let j = 0; j < d; j++) w[j]! -= 0.5 * (gw[j]! / zs.length + l2 * w[j]!);
    b -= 0.5 * (gb / zs.length);
  }
  const raw = w.map((v, j) => v / sd[j]!);
  return { w: raw, b: b - raw.reduce((s, v, j) => s + v * mean[j]!, 0) };
}

/** The lowest threshold on a score at which at least RECALL of the unanswerable score below it. */
function thresholdFor(scores: number[], answerable: boolean[]): number {
  const refused = scores.filter((_, i) => !answerable[i]).sort((a, b) => a - b);
  // Answer when score >= t: t just above the RECALL-quantile of the unanswerable questions' scores.
  const k = Math.ceil(RECALL * refused.length) - 1;
  return k < 0 ? -Infinity : refused[k]! + 1e-9;
}

interface Rule {
  name: string;
  /** Fitted on the training rows, a decision for any row: whether it answers. */
  fit: (train: Row[]) => { answers: (r: Row) => boolean; describe: string };
}

const logisticRules: Rule[] = Object.entries(FEATURE_SETS).map(([name, set]) => ({
  name: `logistic: ${name}`,
  fit: (train) => {
    const learn = FOUND ? train.filter((r) => !r.answerable || found(r)) : train;
    const { w, b } = fitLogistic(
      learn.map(set.of),
      learn.map((r) => (r.answerable ? 1 : 0)),
    );
    const score = (r: Row) => b + set.of(r).reduce((s, v, j) => s + v * w[j]!, 0);
    const t = thresholdFor(
      train.map(score),
      train.map((r) => r.answerable),
    );
    return {
      answers: (r) => score(r) >= t,
      describe: `${set.names.map((n, j) => `${w[j]!.toFixed(3)} * ${n}`).join(' + ')} >= ${(t - b).toFixed(3)}`,
    };
  },
}));

/** coverage + a * wordCoverage + c * semantic >= t: a and c chosen on the training rows, t at RECALL. */
const linearRule: Rule = {
  name: 'cov + a*word + c*cos',
  fit: (train) => {
    let best = { wrong: Infinity, a: 0, c: 0, t: 0 };
    for (let a = 0; a <= 1.0001; a += 0.05)
      for (let c = 0; c <= 1.0001; c += 0.05) {
        const score = (r: Row) => r.top!.cov + a * r.top!.word + c * (r.top!.cos ?? 0);
        const t = thresholdFor(
          train.map(score),
          train.map((r) => r.answerable),
        );
        const wrong = train.filter((r) => r.answerable && score(r) < t).length;
        if (wrong < best.wrong) best = { wrong, a, c, t };
      }
    const { a, c, t } = best;
    return {
      answers: (r) => r.top!.cov + a * r.top!.word + c * (r.top!.cos ?? 0) >= t,
      describe: `coverage + ${a.toFixed(2)} * wordCoverage + ${c.toFixed(2)} * semantic >= ${t.toFixed(3)}`,
    };
  },
};

/** The former form (thresholds on a candidate's coverage, cosine and words, before branch abstain4) with its four thresholds picked on the training rows, as sweep.ts's grid. */
const currentFormRule: Rule = {
  name: "today's form, thresholds re-picked",
  fit: (train) => {
    // The former rule over the first three candidates, as answersQuestion was before branch abstain4.
    const form = (c: number, s: number, cs: number, ws: number) => (r: Row) =>
      r.cands!.slice(0, 3).some((t) => {
        if (t.cov >= c) return true;
        if (t.optionEntry && (t.namedManual || t.soleManual)) return true;
        if (t.cos === undefined) return false;
        if (t.cos >= 0.55 && t.cov >= 0.36 && t.word >= 0.1) return true;
        return t.cos >= s && t.cov >= cs && t.word >= ((t.lacking ?? 0) === 0 ? 0.1 : ws);
      });
    let best = { wrong: Infinity, recall: 0, setting: [0, 0, 0, 0] };
    for (const c of [0.4, 0.45, 0.5, 0.55, 0.6])
      for (const s of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7])
        for (const cs of [0, 0.1, 0.15, 0.2, 0.25, 0.3])
          for (const ws of [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4]) {
            const answers = form(c, s, cs, ws);
            const recall = share(train.filter((r) => !r.answerable).map((r) => !answers(r)));
            const wrong = train.filter((r) => r.answerable && !answers(r)).length;
            if (recall >= RECALL && (wrong < best.wrong || (wrong === best.wrong && recall > best.recall)))
              best = { wrong, recall, setting: [c, s, cs, ws] };
          }
    const [c, s, cs, ws] = best.setting as [number, number, number, number];
    return {
      answers: form(c, s, cs, ws),
      describe: `coverage ${c}, semantic ${s}, coverage with semantic ${cs}, words ${ws}`,
    };
  },
};

/**
 * Today's rule, or else the logistic score over coverage, words, cosine, lacking and best sentence:
 * a second way to answer, its threshold the lowest that keeps RECALL of the training batches'
 * unanswerable questions refused by both.
 */
const eitherRule: Rule = {
  name: "today's rule, or else logistic: cov word cos lacking best",
  fit: (train) => {
    const set = FEATURE_SETS['cov word cos lacking best']!;
    const learn = FOUND ? train.filter((r) => !r.answerable || found(r)) : train;
    const { w, b } = fitLogistic(
      learn.map(set.of),
      learn.map((r) => (r.answerable ? 1 : 0)),
    );
    const score = (r: Row) => b + set.of(r).reduce((s, v, j) => s + v * w[j]!, 0);
    const unanswerable = train.filter((r) => !r.answerable);
    const refusedToday = unanswerable
      .filter((r) => !r.relevant)
      .map(score)
      .sort((a, b) => a - b);
    const k = Math.ceil(RECALL * unanswerable.length) - 1;
    const t = k < refusedToday.length ? (k < 0 ? -Infinity : refusedToday[k]! + 1e-9) : Infinity;
    return {
      answers: (r) => r.relevant || score(r) >= t,
      describe: `today's rule, or ${set.names.map((n, j) => `${w[j]!.toFixed(3)} * ${n}`).join(' + ')} >= ${(t - b).toFixed(3)}`,
    };
  },
};

const currentRule: Rule = {
  name: 'the rule of the dump (answersQuestion when abstain-features.ts ran)',
  fit: () => ({ answers: (r) => r.relevant, describe: 'answersQuestion' }),
};

const rows = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as Row[];
const batches = [...new Set(rows.map((r) => batchOf(r.id)))];
const decide = (answers: (r: Row) => boolean) => (r: Row) => (r.top ? answers(r) : false);

console.log(`recall kept on training batches: ${RECALL}`);
console.log(
  `batches: ${batches.map((b) => `${b} ${rows.filter((r) => batchOf(r.id) === b && r.answerable).length}+${rows.filter((r) => batchOf(r.id) === b && !r.answerable).length}`).join(', ')}`,
);
for (const rule of [currentRule, currentFormRule, linearRule, ...logisticRules, eitherRule]) {
  const cells: string[] = [];
  let wrongSum = 0;
  let recallSum = 0;
  let lostSum = 0;
  const pooled = { wrong: 0, answerable: 0, refused: 0, unanswerable: 0 };
  for (const left of batches) {
    const train = rows.filter((r) => batchOf(r.id) !== left && r.top);
    const test = rows.filter((r) => batchOf(r.id) === left);
    const answers = decide(rule.fit(train).answers);
    const wrong = share(test.filter((r) => r.answerable).map((r) => !answers(r)));
    const recall = share(test.filter((r) => !r.answerable).map((r) => !answers(r)));
    const lost = share(test.filter(found).map((r) => !answers(r)));
    pooled.wrong += test.filter((r) => r.answerable && !answers(r)).length;
    pooled.answerable += test.filter((r) => r.answerable).length;
    pooled.refused += test.filter((r) => !r.answerable && !answers(r)).length;
    pooled.unanswerable += test.filter((r) => !r.answerable).length;
    wrongSum += wrong;
    recallSum += recall;
    lostSum += lost;
    cells.push(`${left} ${wrong.toFixed(3)}/${recall.toFixed(2)}/${lost.toFixed(3)}`);
  }
  const all = rule.fit(rows.filter((r) => r.top));
  const answers = decide(all.answers);
  console.log(`\n${rule.name}`);
  console.log(
    `  left out (wrongly abstained / unanswerable refused / abstained with the right page in the first five): ${cells.join(', ')}`,
  );
  console.log(
    `  average over left-out batches: wrongly abstained ${(wrongSum / batches.length).toFixed(3)}, unanswerable refused ${(recallSum / batches.length).toFixed(3)}, right page in five abstained ${(lostSum / batches.length).toFixed(3)}`,
  );
  console.log(
    `  pooled over left-out batches: wrongly abstained ${pooled.wrong}/${pooled.answerable} = ${(pooled.wrong / pooled.answerable).toFixed(3)}, unanswerable refused ${pooled.refused}/${pooled.unanswerable} = ${(pooled.refused / pooled.unanswerable).toFixed(3)}`,
  );
  console.log(
    `  fitted on all: ${all.describe}; on all tuned: wrongly abstained ${share(rows.filter((r) => r.answerable).map((r) => !answers(r))).toFixed(3)}, refused ${share(rows.filter((r) => !r.answerable).map((r) => !answers(r))).toFixed(3)}, right page in five abstained ${share(rows.filter(found).map((r) => !answers(r))).toFixed(3)}`,
  );
}
