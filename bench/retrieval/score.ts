/** The scores of bench/retrieval: one question's, and a table of them per manual and in all. */

export interface Question {
  id: string;
  /** The manual that answers it (manuals.ts name), or null: none of them does. */
  manual: string | null;
  question: string;
  /** The 1-based physical pages (as ingestion stores page_number) that answer it. */
  pages: number[];
  /** A word or short string on those pages that a good answer contains. */
  key: string | null;
  split: 'tuned' | 'heldout';
}

export interface Answer {
  sources: { manual: string; title: string; page: number | null }[];
  /** The first five distinct pages of the retrieval's own ranking (retrievePassages), empty when it abstained. */
  ranked: { manual: string; page: number | null }[];
  text: string;
  firstByteMs: number;
  firstTextMs: number;
}

export interface Asked extends Question, Answer {
  /** 1-based rank of the first source on an expected page, among the first five; null: none. */
  rank: number | null;
  /** The same for the retrieval's ranking itself (the chat without a model shows at most three pages). */
  rankingRank: number | null;
  abstained: boolean;
  keyInFirst600: boolean | null;
  answerLength: number;
  /** Sources listed whose manual and page the answer text does not cite. */
  unquotedSources: number;
}

export const ABSTENTION = "I couldn't find this in your manuals.";
const KEY_WINDOW = 600;

/** A source counts as quoted when the text names its manual and page as the answers cite them ("Title, page 12" or "Title, p. 12"). */
function isQuoted(text: string, source: Answer['sources'][number]): boolean {
  const lower = text.toLowerCase();
  const title = source.title.toLowerCase();
  return source.page === null
    ? lower.includes(title)
    : lower.includes(`${title}, page ${source.page}`) || lower.includes(`${title}, p. ${source.page}`);
}

/** 1-based rank of the first of the first five pages that is an expected one; null: none. */
function rankOf(q: Question, pages: { manual: string; page: number | null }[]): number | null {
  const index =
    q.manual === null
      ? -1
      : pages.slice(0, 5).findIndex((s) => s.manual === q.manual && s.page !== null && q.pages.includes(s.page));
  return index < 0 ? null : index + 1;
}

export function scoreQuestion(q: Question, answer: Answer): Asked {
  return {
    ...q,
    ...answer,
    rank: rankOf(q, answer.sources),
    rankingRank: rankOf(q, answer.ranked),
    abstained: answer.text.trimStart().startsWith(ABSTENTION),
    keyInFirst600: q.key === null ? null : answer.text.slice(0, KEY_WINDOW).toLowerCase().includes(q.key.toLowerCase()),
    answerLength: answer.text.length,
    unquotedSources: answer.sources.filter((s) => !isQuoted(answer.text, s)).length,
  };
}

const percentile = (xs: number[], p: number) => {
  const sorted = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
};
const share = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : NaN);

export interface Row {
  group: string;
  answerable: number;
  unanswerable: number;
  hitAt1: number;
  hitAt5: number;
  mrrAt5: number;
  /** hit@1, hit@5 and MRR@5 of the retrieval's ranking itself (five distinct pages), beside the chat's (at most three). */
  rankingHitAt1: number;
  rankingHitAt5: number;
  rankingMrrAt5: number;
  /** Of the abstentions, the share on unanswerable questions; of the unanswerable, the share abstained on. */
  abstentionPrecision: number;
  abstentionRecall: number;
  /** Share of the answerable questions abstained on (target: at most 0.03). */
  wrongAbstention: number;
  firstByteP50: number;
  firstByteP95: number;
  firstTextP50: number;
  /** Issue 16: key term in the first 600 characters, median answer length, sources listed but not cited. */
  keyInFirst600: number;
  medianAnswerLength: number;
  unquotedSources: number;
}

const mrr = (ranks: (number | null)[]) =>
  ranks.length ? ranks.reduce((sum: number, r) => sum + (r ? 1 / r : 0), 0) / ranks.length : NaN;

function row(group: string, results: Asked[]): Row {
  const answerable = results.filter((r) => r.manual !== null);
  const unanswerable = results.filter((r) => r.manual === null);
  const abstained = results.filter((r) => r.abstained);
  return {
    group,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    hitAt1: share(answerable.map((r) => r.rank === 1)),
    hitAt5: share(answerable.map((r) => r.rank !== null)),
    mrrAt5: mrr(answerable.map((r) => r.rank)),
    rankingHitAt1: share(answerable.map((r) => r.rankingRank === 1)),
    rankingHitAt5: share(answerable.map((r) => r.rankingRank !== null)),
    rankingMrrAt5: mrr(answerable.map((r) => r.rankingRank)),
    abstentionPrecision: share(abstained.map((r) => r.manual === null)),
    abstentionRecall: share(unanswerable.map((r) => r.abstained)),
    wrongAbstention: share(answerable.map((r) => r.abstained)),
    firstByteP50: percentile(
      results.map((r) => r.firstByteMs),
      50,
    ),
    firstByteP95: percentile(
      results.map((r) => r.firstByteMs),
      95,
    ),
    firstTextP50: percentile(
      results.map((r) => r.firstTextMs),
      50,
    ),
    keyInFirst600: share(answerable.map((r) => r.keyInFirst600 === true)),
    medianAnswerLength: percentile(
      results.map((r) => r.answerLength),
      50,
    ),
    unquotedSources: results.reduce((sum, r) => sum + r.unquotedSources, 0),
  };
}

/** One row per manual, one for the unanswerable questions, one for all. */
export function summarise(results: Asked[], manuals: string[]): Row[] {
  return [
    ...manuals
      .map((name) =>
        row(
          name,
          results.filter((r) => r.manual === name),
        ),
      )
      .filter((r) => r.answerable > 0),
    row(
      'unanswerable',
      results.filter((r) => r.manual === null),
    ),
    row('all', results),
  ];
}

export function formatTable(rows: Row[]): string {
  const num = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
  const header = [
    'group',
    'ans',
    'unans',
    'hit@1',
    'hit@5',
    'MRR@5',
    'rank hit@1',
    'rank hit@5',
    'rank MRR@5',
    'abst.prec',
    'abst.rec',
    'wrong.abst',
    'ttfb p50',
    'ttfb p95',
    'text p50',
    'key@600',
    'med.len',
    'unquoted',
  ];
  const lines = rows.map((r) => [
    r.group,
    String(r.answerable),
    String(r.unanswerable),
    num(r.hitAt1),
    num(r.hitAt5),
    num(r.mrrAt5),
    num(r.rankingHitAt1),
    num(r.rankingHitAt5),
    num(r.rankingMrrAt5),
    num(r.abstentionPrecision),
    num(r.abstentionRecall),
    num(r.wrongAbstention),
    num(r.firstByteP50, 1),
    num(r.firstByteP95, 1),
    num(r.firstTextP50, 1),
    num(r.keyInFirst600),
    num(r.medianAnswerLength, 0),
    String(r.unquotedSources),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines]
    .map((l) => l.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '))
    .join('\n');
}
