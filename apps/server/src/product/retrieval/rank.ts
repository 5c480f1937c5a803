import { sectionOf } from '../../data/chunk-sections.js';
import { aloneInFences, ENTRY_LINE, isFence } from '../../data/option-entry.js';
import { splitSentences, termCount, type Terms, termScore, wordsOf } from './passage-text.js';

/** What the full text says of a candidate, each as a share of the question's rarity-weighted terms where it applies. */
export interface LexicalFeatures {
  /** Share of the question's terms the chunk contains, 0 to 1. */
  coverage: number;
  /** Share of the question's terms that are words no chunk of the library holds, the same in every candidate (relevanceScore), 0 to 1. */
  lacking?: number;
  /** Whether the question names a thing no chunk holds that is no common word (another vendor's tool), the same in every candidate (findCandidates). */
  foreignName?: boolean;
  /** The same share counting the question's words alone (no identifier), in the chunk or its manual's title, 0 to 1. */
  wordCoverage: number;
  /** Share in the chunk's section heading. */
  heading: number;
  /** Share in its manual's title. */
  title: number;
  /** Cover density of all the terms (ts_rank_cd, normalised by length). */
  proximity: number;
  /** Share of the question's neighbouring word pairs found as phrases. */
  phrases: number;
  /** Share of the question's short options ("-e") that begin a line of the chunk, where an option is described. */
  optionLines: number;
  /** Whether a line of the chunk sets one of the question's words as a parameter ("METHOD=name"). */
  settingLine: boolean;
  /** Whether the chunk holds the library's entry for one of the question's short options ("-P port", migration 027; findOptionEntries in retrieve.ts). */
  optionEntry?: boolean;
  /** Share of the question's words and identifiers held by the chunk's one sentence that holds most of them (bestSentenceShare). */
  bestSentence: number;
  /** Whether the chunk's manual is one the question names (findNamedManuals in retrieve.ts). */
  namedManual?: boolean;
  /** Whether the chunk's manual is the only one whose candidates hold the question's identifiers (soleManual). */
  soleManual?: boolean;
  /** Share of PAGE_MATES other candidates from the chunk's page (pageMates), 0 to 1. */
  pageMates?: number;
  /** How often the chunk repeats the question's terms, saturated and for its length (termFrequencies), 0 to 1. */
  frequency?: number;
  /** Whether the chunk opens with an entry whose first sentence holds all of the question's terms (opensWithAnswer). */
  definingEntry?: boolean;
  /** How much less likely the question's rare words are in the chunk's manual than in the likeliest candidates' manual (manualEvidence), 0 for that manual. */
  otherManual?: number;
}

// The full-text score's weights. Calibrated on bench/retrieval's tuned questions (bench/README.md).
export const HEADING_WEIGHT = 0.5;
export const TITLE_WEIGHT = 0.5;
export const PROXIMITY_WEIGHT = 2;
export const PHRASE_WEIGHT = 0.25;
export const OPTION_LINE_WEIGHT = 0.25;
export const SETTING_LINE_WEIGHT = 0.25;
export const BEST_SENTENCE_WEIGHT = 0.3;
/**
 * Added when the chunk holds every one of the question's terms. The proximity meant to reward
 * that is divided by the chunk's length and is near 0 (median 0.002), so a chunk holding them all
 * lost to one lacking a word but closer in meaning (avrdude's "Parallel Ports" page under
 * "Serial Ports"). Any weight from 0.02 to 0.3 gives the same tuned ranking.
 */
export const EVERY_TERM_WEIGHT = 0.1;

/**
 * Matches a line that begins with the option, as where it is described. A value may be attached
 * ("-mstm8" for "-m", as compilers write -I<dir> and -D<name>): requiring the option whole put
 * sdcc's list of -m ports fifth for "which -m switch for an STM8 target".
 */
export function optionLinePattern(option: string): RegExp {
  return new RegExp(`^\\s*${option}`, 'm');
}

/**
 * Whether a line is a table's row of part names ("STK600-RC008T-2 STK600-DIP ATtiny25 ATtiny45
 * ATtiny85"): most of its words, and at least three, hold a digit. Such a row names the parts a
 * question may name, and explains nothing about them.
 */
export function isRowOfNames(line: string): boolean {
  // Most lines hold no digit at all: no need to split them (called for every line of every candidate).
  if (!/\d/.test(line)) return false;
  const words = line.split(/\s+/).filter((w) => /[\p{L}\d]/u.test(w));
  return words.length >= 3 && words.filter((w) => /\d/.test(w)).length > words.length / 2;
}

/** The most termScore gives for all of the question's terms: a word 1, a number 2, an identifier 3. */
const termTotal = (terms: Terms) =>
  terms.words.length + terms.codes.reduce((sum, code) => sum + (/^\d+$/.test(code) ? 2 : 3), 0);

/**
 * The share of the question's terms (passage-text's termScore: a word 1, a number 2, an
 * identifier 3) that one sentence of the text holds, the sentence holding most. Where a thing is
 * described, one sentence names most of what is asked ("--disable-warning <nnnn> Disable specific
 * warning with number <nnnn>"); a page that mentions it spreads the same words over several. A
 * row of part names is no sentence: it holds the question's part numbers and describes nothing.
 */
export function bestSentenceShare(text: string, terms: Terms): number {
  const total = termTotal(terms);
  if (total === 0) return 0;
  let best = 0;
  for (const line of text.split('\n'))
    if (!isRowOfNames(line))
      for (const sentence of splitSentences(line)) best = Math.max(best, termScore(sentence, terms));
  return best / total;
}

/** The lines read for an entry's first sentence at most, and those that only introduce a listing. */
const ENTRY_LINES = 12;
const INTRODUCES_LISTING = /^(?:General form|Examples?)\s*:?$/i;

/**
 * The first sentence of the reference entry a text opens with, if it opens with one: a line that
 * begins with an option or a command ("-e Causes a chip erase to be executed."), or one set alone
 * between fences ("```\n-C config-file\n```" then its description), read on past listings to the end
 * of the sentence that says what it does. The entry's name stands before that sentence.
 */
export function openingEntry(text: string): string | undefined {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const fencedAlone = aloneInFences(lines, 1);
  const name = fencedAlone ? lines[1] : lines[0];
  if (!name || !ENTRY_LINE.test(name)) return undefined;
  let opening = name;
  let inListing = false;
  for (const line of lines.slice(fencedAlone ? 3 : 1, ENTRY_LINES)) {
    if (/[.!?](?=\s|$)/.test(opening)) break;
    if (isFence(line)) inListing = !inListing;
    else if (!inListing && !INTRODUCES_LISTING.test(line)) opening += ` ${line}`;
  }
  return splitSentences(opening)[0] ?? opening;
}

/**
 * Whether the text opens with a reference entry whose first sentence holds every one of the
 * question's words and identifiers (openingEntry): the option or command that does what is asked
 * ("how do I erase the chip": "-e Causes a chip erase to be executed"), where a page that uses it in
 * passing holds the same words further on ("-D Disable auto erase ... does not carry out chip erase").
 */
export function opensWithAnswer(text: string, terms: Terms): boolean {
  const total = termTotal(terms);
  const opening = openingEntry(text);
  return total > 0 && opening !== undefined && termScore(opening, terms) >= total;
}

/** The full-text score of a candidate. */
export function lexicalScore(f: LexicalFeatures, w: RankWeights = RANK_WEIGHTS): number {
  return (
    f.coverage +
    w.heading * f.heading +
    w.title * f.title +
    w.proximity * f.proximity +
    w.phrases * f.phrases +
    w.optionLines * f.optionLines +
    (f.settingLine ? w.settingLine : 0) +
    w.bestSentence * f.bestSentence +
    // Coverage is a sum of weights over their total: 1 but for rounding.
    (f.coverage > 1 - 1e-9 ? w.everyTerm : 0)
  );
}

/** A lexical candidate with what is known of its relevance. */
export interface ScoredCandidate<Row> {
  row: Row;
  features: LexicalFeatures;
  /** Full-text score: rarity-weighted share of the question's terms, heading and proximity bonuses. */
  lexical: number;
  /** Rarity-weighted share of the question's terms the chunk contains, 0 to 1. */
  coverage: number;
  /** Cosine of the chunk's and the question's embeddings, when both are known. */
  semantic: number | undefined;
  /** The greatest cosine of an entry the chunk lists (listedEntries in indexer.ts) to the question, when it lists any. */
  entrySemantic?: number;
  /** A contents or index page (isListing). */
  listing: boolean;
  /** Share of the embedded start of the chunk's text set between ``` fences (fencedShare) or in rows of part names (namesShare), 0 when absent. */
  fenced?: number;
  /** Where the chunk sits: its manual, page and section heading (sectionOpenings). */
  place?: Place;
}

export interface Place {
  manual: string;
  page: number | null;
  heading: string;
}

// Calibrated on bench/retrieval's tuned questions (see bench/README.md, retrieval).
export const SEMANTIC_WEIGHT = 1;

// Subtracted from a contents or index page's score, calibrated the same way.
export const LISTING_PENALTY = 0.3;
/**
 * Added to the score of a chunk of a manual the question names ("are doubles really double
 * precision in sdcc?"): it asks about that manual, and another's page that shares its other words
 * answers something else. The title bonus weighs a manual's name by its rarity, low where most of
 * the manual's pages repeat it. Any weight from 0.15 to 0.5 gives the same tuned ranking.
 */
export const NAMED_MANUAL_BONUS = 0.25;

/**
 * Added to the score of a chunk of the one manual whose candidates alone hold the question's
 * identifiers ("flash a hex file to an atmega328p with a usbasp"): the question is about that
 * manual, and another's page close in meaning that shares only its common words ("hex", "file")
 * answers something else. At 0.1 or 0.25 the tuned ranking gains one place and loses none; the
 * question's rarest words as well (when it has no identifier) flag the wrong manual more often
 * (bench/README.md, branch rankN).
 */
export const SOLE_MANUAL_BONUS = 0.1;

/**
 * For each candidate, whether its manual is the only one whose candidates hold one of the
 * question's identifiers (`holds`): false for all when none holds one, when several manuals do,
 * or when the candidates are of one manual only.
 */
export function soleManual(candidates: { manual: string; holds: boolean }[]): boolean[] {
  const holding = new Set(candidates.filter((c) => c.holds).map((c) => c.manual));
  const manuals = new Set(candidates.map((c) => c.manual));
  const [sole] = holding;
  return candidates.map((c) => holding.size === 1 && manuals.size > 1 && c.manual === sole);
}

/**
 * Smoothing of manualEvidence, in chunks: a word a manual does not hold counts as if it held it as
 * often as the library does, in this many chunks. 10, 50 and 200 gave the tuned ranking the same
 * first places in a first trial (bench/README.md, branch route).
 */
export const MANUAL_EVIDENCE_SMOOTHING = 50;

/**
 * For each manual, what its chunks say of the question's words: the mean over the terms, each by
 * its weight (rarity, an identifier's twice), of the log of the share of the manual's chunks that
 * hold it, smoothed towards the library's share (a query likelihood with Dirichlet smoothing, as a
 * search engine picks which collection to ask). A manual that holds the words often for its size
 * scores high; a large manual that holds one of them in passing scores no higher for its size
 * (ngspice's 1,859 chunks hold "dump" and "file", not "flash", the word avrdude's 174 hold in 41).
 * Weighed, a part the question names ("pic18", in 18 of sdcc's chunks and none of avrdude's) tells
 * more than two common words a small manual holds often ("bootloader", "flash"). `held[m][i]` is how
 * many chunks of manual m hold term i, `terms[i]` its weight and how many of the library's chunks do.
 */
export function manualEvidence(
  manuals: { held: number[]; chunks: number }[],
  terms: { rows: number; weight: number }[],
  libraryChunks: number,
  smoothing = MANUAL_EVIDENCE_SMOOTHING,
): number[] {
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  if (total <= 0) return manuals.map(() => 0);
  return manuals.map(
    (m) =>
      terms.reduce((sum, t, i) => {
        const share = Math.max(t.rows, 0.5) / Math.max(libraryChunks, 1);
        return sum + t.weight * Math.log(((m.held[i] ?? 0) + smoothing * share) / (m.chunks + smoothing));
      }, 0) / total,
  );
}

/** For each evidence (manualEvidence), how far below the best it is: 0 for the best. */
export function evidenceGaps(evidence: number[]): number[] {
  const best = Math.max(...evidence);
  return evidence.map((e) => best - e);
}

/**
 * Subtracted, times the gap (otherManual), from the score of a chunk of a manual whose chunks hold
 * the question's rare words less often than another candidate manual's: a question is answered from
 * one manual, and a page of another that shares a strong generic word with it ("format", "hex",
 * "reset") answers something else. Applied once the library is judged to answer, so no refusal
 * changes. At 0.2 and 0.25 the tuned ranking gains two first places and loses none; at 0.15 one;
 * from 0.3 a second place falls to third (bench/README.md, branch route).
 */
export const OTHER_MANUAL_WEIGHT = 0.2;

/**
 * Added, times the share, to the score of a chunk whose page holds other candidates (chunks with
 * the question's terms), counting up to PAGE_MATES: a page about the subject holds its words in
 * several chunks, a page that only mentions it in one. At 0.03 the tuned ranking gains and no question loses; 0.05 to 0.08 gain more
 * first places but push others down (bench/README.md, branch rankH).
 */
export const PAGE_MATES_WEIGHT = 0.03;
export const PAGE_MATES = 2;

/** For each candidate, the share of PAGE_MATES other candidates on its page (a chunk without a page has none). */
export function pageMates(pages: { manual: string; page: number | null }[]): number[] {
  const key = (p: { manual: string; page: number | null }) => `${p.manual}:${p.page}`;
  const counts = new Map<string, number>();
  for (const p of pages) if (p.page !== null) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
  return pages.map((p) => (p.page === null ? 0 : Math.min(counts.get(key(p))! - 1, PAGE_MATES) / PAGE_MATES));
}

/**
 * Added, times termFrequencies' share, to the score of a chunk: a page about the subject repeats
 * its words, a page that mentions it in passing names them once. Presence alone (coverage) cannot
 * tell the two apart. From 0.02 to 0.1 the tuned ranking gains a first place and loses none; from
 * 0.15 it loses them (bench/README.md, branch rankK).
 */
export const FREQUENCY_WEIGHT = 0.05;

/**
 * Added to the score of a chunk that opens with the entry that says what is asked (opensWithAnswer):
 * it comes before pages that use the option or command in passing ("how do I erase the chip": `-e`
 * first at 0.2, second behind `-D`'s page at 0.1). No tuned question has such a candidate, so no
 * figure moves; counted for an entry anywhere in the chunk, or for part of the question, it moved
 * first places down (bench/README.md, branch rankO).
 */
export const DEFINING_ENTRY_BONUS = 0.2;
/** BM25's saturation and length normalisation (Robertson's usual values). */
const SATURATION = 1.2;
const LENGTH_NORMALISATION = 0.75;

/**
 * For each text, the question's terms' rarity-weighted share, each counted by how often the text
 * holds it (termCount) as BM25 counts it: tf / (tf + k1 (1 - b + b length / average length)),
 * lengths in words, the average over `texts` (the candidates). Computed on the candidates' texts
 * already read, no further query.
 */
export function termFrequencies(
  texts: string[],
  terms: { typed: string; isCode: boolean; weight: number }[],
): number[] {
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  const words = texts.map(wordsOf);
  const lengths = words.map((w) => w.filter(Boolean).length);
  const average = Math.max(lengths.reduce((a, b) => a + b, 0) / Math.max(texts.length, 1), 1);
  return texts.map((text, i) => {
    if (total === 0) return 0;
    const k = SATURATION * (1 - LENGTH_NORMALISATION + (LENGTH_NORMALISATION * lengths[i]!) / average);
    return (
      terms.reduce((sum, t) => {
        const tf = termCount(text, t, words[i]);
        return sum + (t.weight * tf) / (tf + k);
      }, 0) / total
    );
  });
}

/**
 * Added to the chunks of the first page of a section that runs on to the next page, when chunks of
 * both pages are among the best OPENING_CHUNKS: a section is introduced on its first page (its
 * general form, what it is for), and its next page goes on into details that hold the same words
 * (avrdude's vtarg before varef, ngspice's B source's functions before its examples). From 0.06 to
 * 0.12 the tuned ranking gains 1 or 2 first places; past 0.15, and counted among more chunks, it
 * loses them (bench/README.md, branch rankJ).
 */
export const OPENING_WEIGHT = 0.1;
export const OPENING_CHUNKS = 5;

/**
 * For each place, whether its page is the first of its section that another of `places` continues
 * on the next page (same manual and section heading, page + 1). A place without a page or heading has none.
 * The option entry a chunk goes on with is no part of its section: an entry begun on a page goes on on the next.
 */
export function sectionOpenings(places: (Place | undefined)[]): boolean[] {
  const key = (p: Place, page: number) => JSON.stringify([p.manual, sectionOf(p.heading), page]);
  const held = new Set(places.flatMap((p) => (p && sectionOf(p.heading) && p.page !== null ? [key(p, p.page)] : [])));
  return places.map(
    (p) =>
      !!p && !!sectionOf(p.heading) && p.page !== null && held.has(key(p, p.page + 1)) && !held.has(key(p, p.page - 1)),
  );
}

/** The weights of lexicalScore, fuseScores and bringOpeningsForward, as one object so a bench can try others (bench/retrieval/fit-batches.ts). */
export interface RankWeights {
  heading: number;
  title: number;
  proximity: number;
  phrases: number;
  optionLines: number;
  settingLine: number;
  bestSentence: number;
  everyTerm: number;
  semantic: number;
  listing: number;
  namedManual: number;
  soleManual: number;
  pageMates: number;
  frequency: number;
  definingEntry: number;
  opening: number;
  otherManual: number;
}
export const RANK_WEIGHTS: RankWeights = {
  heading: HEADING_WEIGHT,
  title: TITLE_WEIGHT,
  proximity: PROXIMITY_WEIGHT,
  phrases: PHRASE_WEIGHT,
  optionLines: OPTION_LINE_WEIGHT,
  settingLine: SETTING_LINE_WEIGHT,
  bestSentence: BEST_SENTENCE_WEIGHT,
  everyTerm: EVERY_TERM_WEIGHT,
  semantic: SEMANTIC_WEIGHT,
  listing: LISTING_PENALTY,
  namedManual: NAMED_MANUAL_BONUS,
  soleManual: SOLE_MANUAL_BONUS,
  pageMates: PAGE_MATES_WEIGHT,
  frequency: FREQUENCY_WEIGHT,
  definingEntry: DEFINING_ENTRY_BONUS,
  opening: OPENING_WEIGHT,
  otherManual: OTHER_MANUAL_WEIGHT,
};

/** A line that ends in page references after a dot leader or a comma: "Resistors . . . 112", "heap, 58, 101–102". */
const PAGE_REFERENCE_LINE = /(?:(?:\.\s?){3,}|,)\s*\d{1,4}(?:\s*[,–-]\s*\d{1,4})*\s*$/;
/** A contents entry anywhere in a line: a dot leader and its page. */
const DOT_LEADER_ENTRY = /(?:\.\s?){3,}\s*\d{1,4}\b/g;

/**
 * Whether a chunk is a table of contents or an index: over 30% of its lines end in page
 * references, or (where extraction joined a contents page's entries into few lines) it holds
 * more dot-leader entries than lines. Such a page names every subject and answers none.
 */
export function isListing(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim());
  const references = lines.filter((l) => PAGE_REFERENCE_LINE.test(l)).length;
  if (references >= 3 && references > 0.3 * lines.length) return true;
  const entries = text.match(DOT_LEADER_ENTRY)?.length ?? 0;
  return entries >= 3 && entries > lines.length;
}

/** Text between ``` fences (commands, netlists, code), or from a fence left open to the end. */
const FENCED = /```[\s\S]*?(?:```|$)/g;

/**
 * The share of a text set between ``` fences. Word vectors read a listing's names and values
 * (".meas tran inv_delay2 trig v(in) val='vp/2' td=1n") as words unrelated to its subject, so the
 * cosine of a chunk made mostly of one says little of what the chunk is about.
 */
export function fencedShare(text: string): number {
  const fenced = [...text.matchAll(FENCED)].reduce((sum, m) => sum + m[0].length, 0);
  return text.length ? fenced / text.length : 0;
}

/**
 * The share of a text's first `chars` characters (spaces collapsed, as embedded) in rows of part
 * names outside fences (isRowOfNames). Word vectors read part numbers as they read a listing's
 * names: a table of them ("STK600-RC008T-2 STK600-DIP ATtiny85") says little of what a chunk is about.
 */
export function namesShare(text: string, chars: number): number {
  let seen = 0;
  let rows = 0;
  let inListing = false;
  for (const raw of text.split('\n')) {
    if (seen >= chars) break;
    const line = raw.replace(/\s+/g, ' ').trim();
    if (!line) continue;
    if (isFence(line)) inListing = !inListing;
    const length = Math.min(line.length + 1, chars - seen);
    if (!inListing && isRowOfNames(line)) rows += length;
    seen += length;
  }
  return seen ? rows / seen : 0;
}

/** The mean cosine of the candidates that have an embedding (0 when none has): what one without counts. */
function averageCosine(candidates: Pick<ScoredCandidate<unknown>, 'semantic'>[]): number {
  const known = candidates.map((c) => c.semantic).filter((s): s is number => s !== undefined);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : 0;
}

/**
 * The cosine a candidate counts in fuseScores: the average of the others' (`fallback`) without an
 * embedding; with one, its cosine for the share of its embedded text that is prose, the rest,
 * listing, counting the average.
 */
const fusedCosine = (c: Pick<ScoredCandidate<unknown>, 'semantic' | 'fenced'>, fallback: number) =>
  c.semantic === undefined ? fallback : c.semantic * (1 - (c.fenced ?? 0)) + fallback * (c.fenced ?? 0);

/**
 * Orders candidates by their lexical score (scaled to the best candidate's) plus the
 * weighted cosine of their embeddings; a candidate without an embedding counts the average
 * of the others, so a library still being indexed is neither favoured nor buried, and so does
 * the listing share of one with an embedding (fencedShare). A contents or index page is held
 * back: it holds the question's words and answers nothing. A page of a manual the question names
 * comes forward (NAMED_MANUAL_BONUS), a little one of the manual that alone holds its identifiers
 * (SOLE_MANUAL_BONUS), and so, a little, does one whose page holds other candidates (PAGE_MATES_WEIGHT),
 * one that repeats the question's terms (FREQUENCY_WEIGHT) and one that opens with the entry that says
 * what is asked (DEFINING_ENTRY_BONUS).
 */
export function fuseScores<Row>(
  candidates: ScoredCandidate<Row>[],
  weights: RankWeights = RANK_WEIGHTS,
): (ScoredCandidate<Row> & { score: number })[] {
  const best = Math.max(...candidates.map((c) => c.lexical), Number.MIN_VALUE);
  const fallback = averageCosine(candidates);
  const cosine = (c: ScoredCandidate<Row>) => fusedCosine(c, fallback);
  return candidates
    .map((c) => ({
      ...c,
      score:
        c.lexical / best +
        weights.semantic * cosine(c) -
        (c.listing ? weights.listing : 0) +
        (c.features.namedManual ? weights.namedManual : 0) +
        (c.features.soleManual ? weights.soleManual : 0) +
        weights.pageMates * (c.features.pageMates ?? 0) +
        weights.frequency * (c.features.frequency ?? 0) +
        (c.features.definingEntry ? weights.definingEntry : 0),
    }))
    .sort((a, b) => b.score - a.score);
}

/**
 * Fused candidates (fuseScores) with the chunks of a manual that holds the question's rare words less
 * often than another candidate manual held back by the gap (otherManual, OTHER_MANUAL_WEIGHT).
 * Applied once the library is judged to answer, as bringOpeningsForward: it orders the pages that
 * answer, and the judgement stays on the best candidate as fused.
 */
export function holdBackOtherManuals<C extends { score: number; features: LexicalFeatures }>(
  fused: C[],
  weights: RankWeights = RANK_WEIGHTS,
): C[] {
  return fused
    .map((c) => (c.features.otherManual ? { ...c, score: c.score - weights.otherManual * c.features.otherManual } : c))
    .sort((a, b) => b.score - a.score);
}

/**
 * Fused candidates (fuseScores) with a chunk that lists options or commands ranked as close in meaning
 * as its entry closest to the question, where that entry is closer than the chunk (its cosine's share
 * of the score raised to the entry's): "is there a flag so plain char is signed" is one entry of a list
 * whose chunk is embedded from its start, the other entries blurring it. Applied once the library is
 * judged to answer, as bringOpeningsForward: with the entry's cosine in the fusion itself, a question
 * about something else found a list with an entry close enough to be answered.
 */
export function bringEntriesForward<C extends ScoredCandidate<unknown> & { score: number }>(
  fused: C[],
  weights: RankWeights = RANK_WEIGHTS,
): C[] {
  const fallback = averageCosine(fused);
  return fused
    .map((c) => {
      const closer = (c.entrySemantic ?? -Infinity) - fusedCosine(c, fallback);
      return closer > 0 ? { ...c, score: c.score + weights.semantic * closer } : c;
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * Fused candidates (fuseScores) with the first page of a section brought forward where its next page
 * is among the best too (sectionOpenings, OPENING_WEIGHT). Applied once the library is judged to
 * answer: it orders the pages that answer, and the judgement stays on the best candidate as fused.
 */
export function bringOpeningsForward<C extends { score: number; place?: Place }>(
  fused: C[],
  weights: RankWeights = RANK_WEIGHTS,
): C[] {
  const opening = sectionOpenings(fused.slice(0, OPENING_CHUNKS).map((c) => c.place));
  return fused
    .map((c, i) => (opening[i] ? { ...c, score: c.score + weights.opening } : c))
    .sort((a, b) => b.score - a.score);
}

/**
 * How many of the best candidates may show that the library answers. The best by score is often
 * the page closest in meaning yet holding few of the question's words, with the page that holds
 * them second or third ("flash a hex file to an atmega328p with a usbasp": sdcc's page on hex files
 * first, avrdude's usage page second).
 */
export const RELEVANCE_CANDIDATES = 3;
/** How many of the best candidates show whether they agree on a manual (RELEVANCE_WEIGHTS.agreement). */
export const AGREEMENT_CANDIDATES = 5;

/**
 * Weights of what shows that the library answers a question, summed in relevanceScore: a logistic
 * model fitted on the tuned questions of twelve batches written at different times. Each term is
 * the best of the first RELEVANCE_CANDIDATES, not of the first alone, so a technician's filler
 * ("tired of", "every single time") that deflates one page's coverage is made up by another page's
 * words, by the question naming the manual, by the pages agreeing on one manual. The rule it
 * replaced (thresholds on the best candidate's coverage, cosine and words), tuned batch after batch,
 * wrongly refused 5 of 27 answerable questions of the next batch; left out one batch at a time, this
 * wrongly refuses 8 of 415 answerable and refuses 110 of 122 unanswerable, against 16 to 22 and 110
 * to 111 for that rule re-tuned the same way (bench/README.md, branch abstain4; abstain-fit.ts).
 */
export const RELEVANCE_WEIGHTS = {
  coverage: 5.7,
  wordCoverage: 3.6,
  semantic: 0.8,
  /** The share of the question no manual holds: the same in every candidate. */
  lacking: -4.3,
  bestSentence: 5.2,
  /** One of the candidates is of a manual the question names, or the only manual with its identifiers. */
  namedManual: 1.7,
  /** The share of the first AGREEMENT_CANDIDATES of the best candidate's manual: a question about something else scatters. */
  agreement: 1.8,
  /** One of the candidates is an option's own entry. */
  optionEntry: 2.6,
  /**
   * The question names a thing the library holds nowhere and that is no common word ("simulink",
   * "codesys", "avr-objdump") and none of the candidates is of a manual it names: it asks about
   * another vendor's tool with words the manuals share. Not fitted with the others: set between the
   * scores of the tuned questions it concerns (unanswerable up to 7.03, answerable from 8.14;
   * bench/README.md, branch abst5).
   */
  foreignName: -1.8,
};
/** The score at which the library answers: set so that 92% of the tuned unanswerable questions score below it. */
export const RELEVANCE_THRESHOLD = 5.75;

type RelevanceCandidate = {
  coverage: number;
  semantic: number | undefined;
  features: Pick<
    LexicalFeatures,
    'wordCoverage' | 'lacking' | 'foreignName' | 'optionEntry' | 'namedManual' | 'soleManual' | 'bestSentence'
  >;
  place?: Pick<Place, 'manual'>;
};

/** How strongly the best candidates show that the library answers the question (RELEVANCE_WEIGHTS). */
export function relevanceScore(ranked: RelevanceCandidate[]): number {
  const best = ranked.slice(0, RELEVANCE_CANDIDATES);
  if (best.length === 0) return -Infinity;
  const most = (of: (c: RelevanceCandidate) => number) => Math.max(...best.map(of));
  const any = (of: (c: RelevanceCandidate) => boolean | undefined) => (best.some(of) ? 1 : 0);
  const manuals = ranked.slice(0, AGREEMENT_CANDIDATES).map((c) => c.place?.manual);
  const w = RELEVANCE_WEIGHTS;
  const named = any((c) => c.features.namedManual || c.features.soleManual);
  return (
    w.coverage * most((c) => c.coverage) +
    w.wordCoverage * most((c) => c.features.wordCoverage) +
    w.semantic * most((c) => c.semantic ?? 0) +
    w.lacking * (best[0]!.features.lacking ?? 0) +
    w.bestSentence * most((c) => c.features.bestSentence) +
    w.namedManual * named +
    w.agreement * (manuals.filter((m) => m === manuals[0]).length / manuals.length) +
    w.optionEntry * any((c) => c.features.optionEntry) +
    w.foreignName * (best[0]!.features.foreignName && !named ? 1 : 0)
  );
}

/** Whether the library answers the question: its best candidates together score enough (relevanceScore). */
export const answersQuestion = (ranked: RelevanceCandidate[]) => relevanceScore(ranked) >= RELEVANCE_THRESHOLD;
