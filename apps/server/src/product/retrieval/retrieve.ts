import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { transaction } from '../../db/pool.js';
import { manualVisibleTo } from '../manuals/visibility.js';
import type { Neighbour } from './embed-protocol.js';
import type { Embedder } from './embedder.js';
import { escapeRegExp, namesFamily, questionTerms } from './passage-text.js';
import {
  answersQuestion,
  bestSentenceShare,
  bringEntriesForward,
  bringOpeningsForward,
  evidenceGaps,
  fencedShare,
  fuseScores,
  HEADING_WEIGHT,
  holdBackOtherManuals,
  isListing,
  type LexicalFeatures,
  lexicalScore,
  manualEvidence,
  namesShare,
  opensWithAnswer,
  optionLinePattern,
  pageMates,
  PHRASE_WEIGHT,
  PROXIMITY_WEIGHT,
  type ScoredCandidate,
  soleManual,
  termFrequencies,
  TITLE_WEIGHT,
} from './rank.js';
import { EMBEDDED_CHARS, embeddedText } from './indexer.js';
import { otherForms, searchTerms, spellOutTemperatures } from './search-terms.js';

export interface Passage {
  chunkId: string;
  manualId: string;
  title: string;
  page: number | null;
  fileUrl: string;
  text: string;
  /** The section heading the passage sits under ('' when none is known). */
  heading: string;
  /** Fused relevance; only comparable within one question. */
  score: number;
}

export interface Retrieval {
  /** The passages that answer the question, best first; empty when nothing is relevant enough. */
  passages: Passage[];
  /** False when the library has nothing relevant enough: the chat then says so. */
  relevant: boolean;
  /** When not relevant: the closest pages, offered as suggestions only. */
  suggestions: Passage[];
}

export interface RetrievalDeps {
  pool: pg.Pool;
  /**
   * Embeds the question for semantic reranking, and finds the words nearest in meaning to a word the
   * library lacks; without it (or when it fails) ranking is lexical alone.
   */
  embedder?: Pick<Embedder, 'embed'> & Partial<Pick<Embedder, 'neighbours' | 'knows' | 'commonWords'>>;
}

/** At most this many passages go to the model. */
export const PASSAGE_LIMIT = 6;
/** Suggestions offered when nothing is relevant. */
const SUGGESTION_LIMIT = 3;
/** A term in more chunks than this is common: it ranks, but does not select candidates. */
const COMMON_TERM_ROWS = 2000;
/** Candidates read per way of matching (bounded, because only rare terms select them). */
const CANDIDATE_ROWS = 1500;
/**
 * The candidate query runs with the table read through its index only. The planner guesses how many
 * chunks hold a rare word from the column's statistics, as half the share of the least common word
 * it keeps there: a long question's 28 rare words came to 5% of a library of 1,000,000 chunks, so it
 * read the table in order until 1,500 rows matched, all million of them (2.7 s), where the index finds
 * the 624 that hold a word at once. Each way is built to be selective (rare terms, identifiers),
 * so reading the index is never far from the best plan and a sequential scan can be a disaster.
 */
export const CANDIDATE_QUERY_BEGIN = 'BEGIN READ ONLY; SET LOCAL enable_seqscan = off';
/** The best lexical candidates that are reranked with their embeddings. */
const RERANK_ROWS = 60;
/**
 * Rarity is judged as in a library of at most this many chunks, a few large manuals: a question is
 * answered from one manual, and in a library of a million chunks a word in 500 of them ("default")
 * is rare, but as common in the manual that answers as in a small library. Judged in the whole
 * library, every word only the answering manual holds weighs nearly alike, and one it lacks decides.
 * Calibrated on bench/retrieval/scale.ts's tuned questions (bench/README.md).
 */
const RARITY_CHUNKS = 5000;

interface Term {
  query: string;
  rows: number;
  isCode: boolean;
  /** The word as the question spells it. */
  typed: string;
  /** A stand-in's alternatives (its query is their disjunction): holding any one is holding it. */
  anyOf?: string[];
  /** A short option's entry (findOptionEntries): weighed as the chunks of its letter, never in a heading. */
  entryOf?: { letterRows: number };
}

/**
 * Each term as a tsquery (words through the English stemmer, codes as typed, as a phrase) with
 * the number of chunks it occurs in, and the library's size, in one query. Corpus counts only, from
 * search_terms (kept exact as chunks are stored and deleted: migration 015): no row of any manual is
 * read. A term of several lexemes (a code such as PN-4471-B, a hyphenated word) counts as its
 * rarest lexeme, the most chunks it can be in.
 */
async function termStatistics(
  pool: pg.Pool,
  { words, codes, pairs }: Pick<ReturnType<typeof searchTerms>, 'words' | 'codes' | 'pairs'>,
): Promise<{ terms: Term[]; chunks: number; phrases: string[] }> {
  const { rows: all } = await pool.query<{
    query: string;
    typed: string;
    kind: 'word' | 'code' | 'phrase';
    rows: string;
    chunks: string | null;
  }>(
    `SELECT DISTINCT ON (q::text) q::text AS query, typed, kind,
       (SELECT coalesce(min(coalesce(s.chunks, 0)), 0) FROM unnest(tsvector_to_array(v)) l LEFT JOIN search_terms s ON s.lexeme = l) AS rows,
       (SELECT chunks FROM search_terms WHERE lexeme = '') AS chunks
     FROM (SELECT plainto_tsquery('english', w) AS q, to_tsvector('english', w) AS v, w AS typed, 'word' AS kind FROM unnest($1::text[]) w
           UNION ALL SELECT phraseto_tsquery('simple', c), to_tsvector('simple', c), c, 'code' FROM unnest($2::text[]) c
           UNION ALL SELECT phraseto_tsquery('english', p), NULL, p, 'phrase' FROM unnest($3::text[]) p) t
     WHERE q::text <> '' AND (kind <> 'phrase' OR q::text LIKE '%<->%')`,
    [words, codes, pairs],
  );
  return {
    terms: all
      .filter((r) => r.kind !== 'phrase')
      .map((r) => ({ query: r.query, typed: r.typed, rows: Number(r.rows), isCode: r.kind === 'code' })),
    chunks: Number(all[0]?.chunks ?? 0),
    phrases: all.filter((r) => r.kind === 'phrase').map((r) => r.query),
  };
}

/** A term held where any of `queries` is (a stand-in's neighbours, a compound, an acronym's words): their disjunction, each kept to tell which a chunk holds. */
const anyOfQueries = (queries: string[]) => ({ query: queries.map((q) => `(${q})`).join(' | '), anyOf: queries });

/**
 * A term also held where each of `others` is (a compound, a split the library writes it as), with
 * their chunks: the queries it had (itself, unless no chunk holds it) and theirs, as one term.
 */
function alsoHeldAs(t: Term, others: { query: string; rows: string }[]): void {
  if (others.length === 0) return;
  Object.assign(t, {
    ...anyOfQueries([...(t.anyOf ?? (t.rows > 0 ? [t.query] : [])), ...others.map((o) => o.query)]),
    rows: others.reduce((sum, o) => sum + Number(o.rows), t.rows),
  });
}

interface Compound {
  pair: string;
  phrase: string;
  query: string;
  rows: string;
}

/** The neighbouring word pairs of the question that the library holds written as one word, with their chunks. */
async function findCompounds(pool: pg.Pool, pairs: string[]): Promise<Compound[]> {
  const wordPairs = pairs.filter((p) => /^\p{L}+ \p{L}+$/u.test(p));
  if (wordPairs.length === 0) return [];
  const { rows } = await pool.query<Compound>(
    `SELECT pair, phraseto_tsquery('english', pair)::text AS phrase, q::text AS query, s.chunks AS rows
     FROM unnest($1::text[]) pair
     CROSS JOIN LATERAL (SELECT plainto_tsquery('english', replace(pair, ' ', '')) AS q,
       tsvector_to_array(to_tsvector('english', replace(pair, ' ', ''))) AS lexemes) l
     JOIN search_terms s ON cardinality(l.lexemes) = 1 AND s.lexeme = l.lexemes[1] AND s.chunks > 0
     WHERE plainto_tsquery('english', split_part(pair, ' ', 1))::text <> ''
       AND plainto_tsquery('english', split_part(pair, ' ', 2))::text <> ''`,
    [wordPairs],
  );
  return rows;
}

/**
 * Two neighbouring words of the question that the library writes as one ("baud rate" where an
 * option reads "-b baudrate", "log file" and "logfile"): each word is also held by a chunk that
 * holds the compound, as a stand-in holds a missing word. Stop words make none ("for the"). Returns
 * each pair's phrase query with its compound's.
 */
function holdCompounds(terms: Term[], compounds: Compound[]): Map<string, string> {
  for (const t of terms) {
    if (t.isCode) continue;
    alsoHeldAs(
      t,
      compounds.filter((c) => c.pair.split(' ').includes(t.typed) && c.query !== t.query),
    );
  }
  return new Map(compounds.map((c) => [c.phrase, c.query]));
}

/** Chunks counted for a word's split at most (its weight is then that of a common term). */
const SPLIT_CHUNKS = COMMON_TERM_ROWS;

/**
 * Each split of the question's words of 6 letters or more into two of 3 or more ("timestep" as
 * "time step") that the library writes as a phrase, with the chunks that hold it.
 */
async function findSplits(pool: pg.Pool, words: string[]): Promise<{ typed: string; query: string; rows: string }[]> {
  const splits = words
    .filter((w) => /^\p{L}{6,}$/u.test(w))
    .flatMap((w) =>
      Array.from({ length: w.length - 5 }, (_, i) => ({ typed: w, phrase: `${w.slice(0, i + 3)} ${w.slice(i + 3)}` })),
    );
  if (splits.length === 0) return [];
  const { rows } = await pool.query<{ typed: string; query: string; rows: string }>(
    `WITH held AS MATERIALIZED (
       SELECT typed, q
       FROM unnest($1::text[], $2::text[]) s(typed, phrase)
       CROSS JOIN LATERAL (SELECT phraseto_tsquery('english', phrase) AS q) p
       CROSS JOIN LATERAL (
         SELECT count(*) AS found, min(t.chunks) AS fewest
         FROM unnest(tsvector_to_array(to_tsvector('english', phrase))) l
         JOIN search_terms t ON t.lexeme = l AND t.chunks > 0
       ) w
       -- Only splits into two words the library holds (search_terms, no chunk read), one of them in at
       -- most $3 chunks: the phrase is then checked in at most that many, also in a large library.
       WHERE q::text ~ '^''[^'']+'' <-> ''[^'']+''$' AND w.found = 2 AND w.fewest <= $3
     )
     SELECT typed, q::text AS query, n.rows
     FROM held
     CROSS JOIN LATERAL (SELECT count(*) AS rows FROM (SELECT 1 FROM manual_content c WHERE c.search @@ held.q LIMIT $3) x) n
     WHERE n.rows > 0`,
    [splits.map((s) => s.typed), splits.map((s) => s.phrase), SPLIT_CHUNKS],
  );
  return rows;
}

/**
 * A word the manual may also write as two ("timestep" where an error reads "time step too small"):
 * it is held where its two words are, as a pair the library writes as one is (holdCompounds).
 */
function holdSplits(terms: Term[], splits: { typed: string; query: string; rows: string }[]): void {
  for (const t of terms)
    if (!t.isCode)
      alsoHeldAs(
        t,
        splits.filter((s) => s.typed === t.typed && s.query !== t.query),
      );
}

interface OptionEntry {
  option: string;
  query: string;
  rows: string;
  letter_rows: string;
}

/**
 * The question's short options ("-B", "-e") that begin a line of some chunk, the entries of
 * migration 027, with the chunks holding each and those holding its letter(s) as a word: one
 * indexed read of search_terms, no chunk read.
 */
async function findOptionEntries(pool: pg.Pool, options: string[]): Promise<OptionEntry[]> {
  const short = options.filter((o) => /^-\p{L}/u.test(o));
  if (short.length === 0) return [];
  const { rows } = await pool.query<OptionEntry>(
    `SELECT o AS option, quote_literal(o)::tsquery::text AS query, e.chunks AS rows,
       coalesce((SELECT chunks FROM search_terms WHERE lexeme = lower(substr(o, 2))), 0) AS letter_rows
     FROM unnest($1::text[]) o JOIN search_terms e ON e.lexeme = o AND e.chunks > 0`,
    [short],
  );
  return rows;
}

/**
 * A short option the library has an entry for is searched as that entry in place of its letter:
 * "Appendix B" holds the letter of "-B" as much as the option's own description does, and "-b" is
 * another option. The entry's chunks select candidates, and it weighs as its letter did (as a
 * rarer identifier it outweighed the rest of the question: "-p for an attiny85" found the -p
 * entry). A letter that is an English stop word ("-o", "-s") had no term: the entry is added. An
 * option with no entry stays the word it is.
 */
function searchOptionEntries(terms: Term[], entries: OptionEntry[]): void {
  for (const e of entries) {
    const letters = e.option.slice(1).toLowerCase();
    const entry: Term = {
      query: e.query,
      rows: Number(e.rows),
      isCode: false,
      typed: letters,
      entryOf: { letterRows: Number(e.letter_rows) },
    };
    const at = terms.findIndex((t) => !t.isCode && !t.entryOf && t.typed === letters);
    if (at >= 0) terms[at] = entry;
    else terms.push(entry);
  }
}

/** An identifier no chunk holds (a part family's name, findFamilies). */
const unheldCode = (t: Term) => t.isCode && t.rows === 0;

/** A part family's members read at most, those in most chunks first: a bound in a large library. */
const FAMILY_MEMBERS = 50;

/**
 * For each of the question's identifiers that no chunk holds, the identifiers the library holds
 * that begin with it where a letter meets a digit ("pic18" for pic18f452, "avr32dd" for
 * avr32dd20), with their chunks: a technician names a part family, a manual its members. Not a
 * number that goes on in digits ("0x800" is not 0x8000), nor a code of 3 characters or fewer
 * ("e4", "p2": an error code or a pin of its own). The prefix is read as a range of
 * search_terms' key (in code-point order, as the embedded server's database is made with no
 * locale), so only the family's own rows are, also in a large library.
 */
async function findFamilies(pool: pg.Pool, codes: Term[]): Promise<{ typed: string; query: string; rows: string }[]> {
  const families = codes.filter((t) => namesFamily.test(t.typed)).map((t) => t.typed);
  if (families.length === 0) return [];
  const { rows } = await pool.query<{ typed: string; query: string; rows: string }>(
    `SELECT f.typed, quote_literal(s.lexeme)::tsquery::text AS query, s.chunks AS rows
     FROM unnest($1::text[]) f(typed)
     CROSS JOIN LATERAL (
       SELECT lexeme, chunks FROM search_terms
       WHERE lexeme > f.typed AND lexeme < left(f.typed, -1) || chr(ascii(right(f.typed, 1)) + 1)
         AND starts_with(lexeme, f.typed) AND chunks > 0
         AND substr(lexeme, length(f.typed) + 1, 1) ~ CASE WHEN right(f.typed, 1) ~ '[0-9]' THEN '^[[:alpha:]]' ELSE '^[0-9]' END
       ORDER BY chunks DESC, lexeme LIMIT $2) s`,
    [families, FAMILY_MEMBERS],
  );
  return rows;
}

/** British endings and their American spelling, which most manuals use ("initialised", "initialized"). */
const BRITISH_ENDINGS: [RegExp, string][] = [
  [/(?<=\p{L}{3})is(e|ed|es|ing|ation|ations|er|ers)$/u, 'iz$1'],
  [/(?<=\p{L}{2})ys(e|ed|es|ing)$/u, 'yz$1'],
  [/(?<=\p{L}{2})our(s|ed|ing)?$/u, 'or$1'],
  [/(?<=\p{L}{3})tre(s)?$/u, 'ter$1'],
];

/** The American spelling of a word typed the British way, or undefined. */
export function americanSpelling(word: string): string | undefined {
  for (const [ending, american] of BRITISH_ENDINGS) if (ending.test(word)) return word.replace(ending, american);
  return undefined;
}

/** Each of `forms` (another form of the question's word `typed`) that the library holds as one word, with its chunks. */
async function findHeldForms(
  pool: pg.Pool,
  forms: { typed: string; form: string }[],
): Promise<{ typed: string; query: string; rows: string }[]> {
  if (forms.length === 0) return [];
  const { rows } = await pool.query<{ typed: string; query: string; rows: string }>(
    `SELECT typed, q::text AS query, s.chunks AS rows
     FROM unnest($1::text[], $2::text[]) w(typed, form)
     CROSS JOIN LATERAL (SELECT plainto_tsquery('english', form) AS q, tsvector_to_array(to_tsvector('english', form)) AS lexemes) l
     JOIN search_terms s ON cardinality(l.lexemes) = 1 AND s.lexeme = l.lexemes[1] AND s.chunks > 0`,
    [forms.map((f) => f.typed), forms.map((f) => f.form)],
  );
  return rows;
}

/** The American spellings the library holds of the question's words it lacks, each with its chunks. */
const findSpellings = (pool: pg.Pool, missing: Term[]) =>
  findHeldForms(
    pool,
    missing.flatMap((t) => {
      const american = americanSpelling(t.typed);
      return american ? [{ typed: t.typed, form: american }] : [];
    }),
  );

/**
 * Whether each word has a word vector (a look-up, no search): a typo or a coined parameter name has none.
 * Undefined when the embedder cannot say.
 */
const haveVectors = (deps: RetrievalDeps, words: string[]): Promise<boolean[] | undefined> =>
  deps.embedder?.knows?.(words).catch(() => undefined) ?? Promise.resolve(undefined);

/** Whether each word is a common word (word-vectors.ts isCommonWord); undefined when the embedder cannot say. */
const areCommonWords = (deps: RetrievalDeps, words: string[]): Promise<boolean[] | undefined> =>
  words.length === 0
    ? Promise.resolve([])
    : (deps.embedder?.commonWords?.(words).catch(() => undefined) ?? Promise.resolve(undefined));

/** Whether the word follows a number in the question, as a unit does ("0.5 milliohm", "2 Vpp"). */
const afterNumber = (question: string, word: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}.])\\d+(?:[.,]\\d+)?\\s*${escapeRegExp(word)}(?![\\p{L}\\p{N}])`, 'iu').test(question);

/** The shortest word read as a typo of any kind: a word of 4 letters has many held words one edit away ("erse": else, erase, ease). */
const TYPO_MIN_LETTERS = 5;
/** The shortest word read as two neighbours swapped ("cihp": chip, "hxe": hex): with its first letter kept, a word of 4 has two such spellings. */
const SWAP_MIN_LETTERS = 3;
/**
 * A word of 4 letters is read as a typo of another kind only when the library holds one word one edit away
 * in this many times the chunks of any other ("stak": stack 85, stay 7; not "erse": else 34, erase 31) ...
 */
const SHORT_TYPO_DOMINANCE = 4;
/** ... and in at least this many chunks. */
const SHORT_TYPO_MIN_ROWS = 5;
/** A word of letters alone (an identifier has digits or marks) of n letters or more. */
const lettersOnly = (n: number) => new RegExp(`^\\p{Ll}{${n},}$`, 'u');
const typoShaped = lettersOnly(TYPO_MIN_LETTERS);
const swapShaped = lettersOnly(SWAP_MIN_LETTERS);

/** Every spelling one edit from `word`: a letter dropped, added or changed, or two neighbours swapped. */
export function oneEditAway(word: string): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const forms = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const [before, after] = [word.slice(0, i), word.slice(i)];
    if (after) forms.add(before + after.slice(1));
    if (after.length > 1) forms.add(before + after[1] + after[0] + after.slice(2));
    for (const l of letters) {
      forms.add(before + l + after);
      if (after) forms.add(before + l + after.slice(1));
    }
  }
  forms.delete(word);
  return [...forms];
}

/** Whether `form` is `word` with two neighbouring letters swapped. */
export function swapped(word: string, form: string): boolean {
  if (word.length !== form.length) return false;
  const at = [...word].flatMap((c, i) => (c === form[i] ? [] : [i]));
  return at.length === 2 && at[1] === at[0]! + 1 && word[at[0]!] === form[at[1]!] && word[at[1]!] === form[at[0]!];
}

/** A spelling one edit from a typed word, that the library holds, with its lexeme's chunks. */
interface HeldForm {
  typed: string;
  form: string;
  lexeme: string;
  query: string;
  rows: string;
}

/** The spellings of `forms` that the library holds as one word (stemmed), with their chunks. */
async function heldForms(pool: pg.Pool, forms: { typed: string; form: string }[]): Promise<HeldForm[]> {
  if (forms.length === 0) return [];
  const { rows } = await pool.query<HeldForm>(
    `SELECT typed, form, s.lexeme, quote_literal(s.lexeme)::tsquery::text AS query, s.chunks AS rows
     FROM unnest($1::text[], $2::text[]) w(typed, form)
     CROSS JOIN LATERAL (SELECT tsvector_to_array(to_tsvector('english', form)) AS lexemes) l
     JOIN search_terms s ON cardinality(l.lexemes) = 1 AND s.lexeme = l.lexemes[1] AND s.chunks > 0`,
    [forms.map((f) => f.typed), forms.map((f) => f.form)],
  );
  return rows;
}

/**
 * The word a typo was meant as, of the held spellings one edit from it: a word the vectors know before one
 * they do not ("priorty": priority, not "priorly"; "defintion": definition, not "defination", whose stem
 * 'defin' is define's), then the one most chunks hold ("eepron": eeprom, which the vectors lack). A word of
 * fewer than TYPO_MIN_LETTERS letters only as two neighbours swapped, when one swap is held ("buad": baud,
 * not "bad"), or as the one word the library holds far more than any other.
 */
function meantWord(
  typed: string,
  held: HeldForm[],
  known: (form: string) => boolean | undefined,
): HeldForm | undefined {
  const best = (forms: HeldForm[]) =>
    [...forms].sort(
      (a, b) =>
        Number(known(b.form) ?? false) - Number(known(a.form) ?? false) ||
        Number(b.rows) - Number(a.rows) ||
        a.lexeme.localeCompare(b.lexeme),
    )[0];
  if (typed.length >= TYPO_MIN_LETTERS) return best(held);
  const swaps = held.filter((h) => swapped(typed, h.form) && known(h.form) !== false);
  if (new Set(swaps.map((h) => h.lexeme)).size === 1) return best(swaps);
  if (swaps.length > 0 || typed.length < 4) return undefined;
  const [first, ...rest] = [...new Map(held.map((h) => [h.lexeme, Number(h.rows)])).entries()].sort(
    (a, b) => b[1] - a[1],
  );
  if (!first || first[1] < SHORT_TYPO_MIN_ROWS || rest.some(([, rows]) => rows * SHORT_TYPO_DOMINANCE > first[1]))
    return undefined;
  return best(held.filter((h) => h.lexeme === first[0]));
}

/**
 * For each of the question's words that no chunk holds and the word vectors do not know, the word one
 * edit away that it was meant as (meantWord: "interupt": interrupt, "condtion": condition, "cihp": chip),
 * with its chunks: a technician in gloves mistypes, and a typo has no vector to find a stand-in by. A word
 * the vectors know is a word ("wiped" is not "wired"); when they cannot say, the library alone decides. So
 * is a word the library holds only as the stemmer cuts it ("programer" as 'program') that the vectors do
 * not know, when a word they know one edit away has another stem (programmer): then that word's stem is
 * searched in its place; a word held as typed ("printf", not print) is the library's own. Read from
 * search_terms alone, one indexed lookup per spelling; an identifier is never corrected.
 */
async function findTypos(
  deps: RetrievalDeps,
  terms: Term[],
): Promise<{ typed: string; form: string; query: string; rows: string; known: boolean }[]> {
  const plain = (t: Term) => !t.isCode && !t.anyOf && !t.entryOf;
  const lacking = terms.filter((t) => plain(t) && t.rows === 0 && swapShaped.test(t.typed)).map((t) => t.typed);
  // A held word the stemmer cut ("programer" as 'program'): the library holds the stem, not the word. One
  // held as typed ("printf") is the library's own.
  const stemmed = terms.filter(
    (t) => plain(t) && t.rows > 0 && typoShaped.test(t.typed) && lexemesOf(t.query).join(' ') !== t.typed,
  );
  // A typo keeps the first letter (a name the vectors lack is no typo of another: "rsync" is not "async").
  const spellings = (typed: string) =>
    oneEditAway(typed)
      .filter((form) => form[0] === typed[0])
      .map((form) => ({ typed, form }));
  const lackingForms = lacking.flatMap(spellings);
  if (lacking.length + stemmed.length === 0) return [];
  // Whether the vectors know the words, beside the library's spellings of those it lacks; then whether
  // they know those spellings, and every spelling of a held stem they do not know (a few words, asked
  // apart: hundreds of spellings for each word of every question would cost milliseconds).
  const words = [...lacking, ...stemmed.map((t) => t.typed)];
  const [vectors, held] = await Promise.all([haveVectors(deps, words), heldForms(deps.pool, lackingForms)]);
  const typoStems = vectors ? stemmed.filter((t) => !vectors[words.indexOf(t.typed)]) : [];
  const stemForms = typoStems.flatMap((t) => spellings(t.typed));
  const asked = [...new Set([...held.map((h) => h.form), ...stemForms.map((f) => f.form)])];
  const formVectors = vectors && asked.length ? await haveVectors(deps, asked) : undefined;
  const knownWords = new Map([
    ...words.map((word, i) => [word, vectors?.[i]] as const),
    ...asked.map((form, i) => [form, formVectors?.[i]] as const),
  ]);
  const known = (word: string) => knownWords.get(word);
  const found: HeldForm[] = [];
  for (const typed of lacking) {
    // A typo has no vector; when the embedder cannot say, the library alone decides.
    if (known(typed)) continue;
    const meant = meantWord(
      typed,
      held.filter((h) => h.typed === typed),
      known,
    );
    if (meant) found.push(meant);
  }
  // A held stem is read as a typo only when the vectors can say: the word is none they know, the word meant one they do.
  const heldStems = await heldForms(
    deps.pool,
    stemForms.filter((f) => known(f.form)),
  );
  for (const t of typoStems) {
    const own = lexemesOf(t.query);
    const forms = heldStems.filter((h) => h.typed === t.typed);
    // A word they know that the stemmer makes the same of ("programed") reads the typed word as well.
    if (forms.some((h) => own.includes(h.lexeme))) continue;
    const meant = meantWord(t.typed, forms, known);
    if (meant) found.push(meant);
  }
  // Whether the word meant is one the vectors know (a typo of a word, not a name read as one: foreignName).
  return found.map(({ typed, form, query, rows }) => ({ typed, form, query, rows, known: known(form) === true }));
}

/**
 * The question's words of 4 letters or more that no chunk holds but the library holds as the name of
 * the switch that turns them off ("gcse" where a compiler's options read --nogcse and #pragma
 * nogcse), each with its chunks: a tool names the option by the feature it disables. The stem is
 * matched after "no" as indexed ("mine" is not "nominal"'s stem 'nomin').
 */
async function findSwitchesOff(
  pool: pg.Pool,
  missing: Term[],
): Promise<{ typed: string; query: string; rows: string }[]> {
  const words = missing.filter((t) => /^\p{L}{4,}$/u.test(t.typed) && lexemesOf(t.query).length === 1);
  if (words.length === 0) return [];
  const { rows } = await pool.query<{ typed: string; query: string; rows: string }>(
    `SELECT w.typed, quote_literal(s.lexeme)::tsquery::text AS query, s.chunks AS rows
     FROM unnest($1::text[], $2::text[]) w(typed, stem)
     JOIN search_terms s ON s.lexeme = 'no' || w.stem AND s.chunks > 0`,
    [words.map((t) => t.typed), words.map((t) => lexemesOf(t.query)[0]!)],
  );
  return rows;
}

/** Letters a manual's parameter name may put before the word it is named after. */
const NAME_PREFIXES = [...'abcdefghijklmnopqrstuvwxyz'];
/** Chunks holding a name's lexeme read at most for the name as written: a bound in a large library. */
const NAME_CHUNKS = 50;

/**
 * The parameter names the library holds that are one letter and a word of the question ("tstep" and
 * "tstop" where ".tran tstep tstop" is described, "vstart", "fstop"): a technician asks for the stop
 * time, the manual names the parameter. Only a name the word vectors do not know as a word of its
 * own ("clock" is no name for "lock", nor "flash" for "lash"); none when the embedder cannot say.
 */
async function findPrefixedNames(
  deps: RetrievalDeps,
  words: string[],
): Promise<{ typed: string; query: string; rows: string }[]> {
  const typed = words.filter((w) => /^\p{L}{4,}$/u.test(w));
  if (typed.length === 0 || !deps.embedder?.neighbours) return [];
  // The lexemes of a letter and the word's stem ("lfuse" for "fuses"), read from search_terms alone;
  // the stemmer must make the same of the letter and the word as typed ("useed" is "use", not u-seed).
  const { rows } = await deps.pool.query<{ typed: string; letter: string; lexeme: string }>(
    `SELECT w.typed, p.letter, s.lexeme
     FROM unnest($1::text[]) w(typed)
     CROSS JOIN LATERAL (SELECT tsvector_to_array(to_tsvector('english', w.typed)) AS stems) l
     CROSS JOIN unnest($2::text[]) p(letter)
     JOIN search_terms s ON cardinality(l.stems) = 1 AND s.lexeme = p.letter || l.stems[1] AND s.chunks > 0
     WHERE to_tsvector('english', p.letter || w.typed) = to_tsvector('english', s.lexeme)`,
    [typed, NAME_PREFIXES],
  );
  // One letter names a set of parameters (t for time: tstep, tstop, tstart), and the question asks for
  // two of them; a name found for one word alone is as likely another thing ("dnode" for "node").
  const sets = rows.filter((r) => rows.some((o) => o.typed !== r.typed && o.letter === r.letter));
  if (sets.length === 0) return [];
  // A coined name has no vector; when the embedder cannot say, none is taken.
  const vectors = await haveVectors(
    deps,
    sets.map((r) => r.letter + r.typed),
  );
  const coined = sets.filter((_, i) => vectors?.[i] === false);
  if (coined.length === 0) return [];
  // And one the manual writes so: a stem may be another word's ("relev" of relevant for r-elevator).
  const { rows: written } = await deps.pool.query<{ typed: string; query: string }>(
    `SELECT typed, quote_literal(lexeme)::tsquery::text AS query
     FROM unnest($1::text[], $2::text[], $3::text[]) n(typed, letter, lexeme)
     WHERE EXISTS (
       SELECT 1 FROM (SELECT c.extracted_text FROM manual_content c WHERE c.search @@ quote_literal(n.lexeme)::tsquery LIMIT $4) c
       WHERE c.extracted_text ~* ('\\m' || n.letter || '(' || n.typed || '|' || substr(n.lexeme, 2) || ')\\M'))`,
    [coined.map((r) => r.typed), coined.map((r) => r.letter), coined.map((r) => r.lexeme), NAME_CHUNKS],
  );
  // Counted in no chunk: the word keeps its own rarity, so the pages that write it score as before.
  return written.map(({ typed, query }) => ({ typed, query, rows: '0' }));
}

/** The full words the library holds of the question's short forms ("sim": simulation, simulator), each with its chunks. */
const findOtherForms = (pool: pg.Pool, words: string[]) =>
  findHeldForms(
    pool,
    words.flatMap((typed) => otherForms(typed).map((form) => ({ typed, form }))),
  );

/**
 * Each chosen term is also held where the library holds what was found for it, as the same term: a
 * short form where its full words are ("config" where the manual writes "configuration"), a word
 * where the switch that turns it off is, a part family where its members are. The term as typed
 * stays searched where the library holds it.
 */
function holdAlso(
  terms: Term[],
  found: { typed: string; query: string; rows: string }[],
  which: (t: Term) => boolean,
): void {
  for (const t of terms)
    if (which(t))
      alsoHeldAs(
        t,
        found.filter((f) => f.typed === t.typed && f.query !== t.query),
      );
}

/**
 * A word the library lacks only as typed the British way is the word it holds, at full weight (a
 * stand-in earns half: it is another word). Word vectors know few British spellings.
 */
function holdSpellings(terms: Term[], spellings: { typed: string; query: string; rows: string }[]): void {
  for (const s of spellings) {
    const t = terms.find((term) => term.typed === s.typed && !term.isCode);
    if (t) Object.assign(t, { query: s.query, rows: Number(s.rows) });
  }
}

/** Chunks holding an acronym read for its definition, at most: a bound in a large library. */
const ACRONYM_CHUNKS = 200;

/**
 * What each acronym of the question stands for, where a manual the caller may read defines it
 * ("interrupt service routine (ISR)"): the words before the parenthesis whose initials spell it,
 * as a phrase query, by the acronym in lower case. Not a word typed in capitals that is common in
 * the library ("ERROR": in COMMON_TERM_ROWS chunks or more, as isCommon in findCandidates): the
 * first chunks of thousands define nothing, and in a library of 1,000,000 chunks the index read
 * for them (half a million rows) was 100-170 ms of such a question's time.
 */
async function findAcronyms(pool: pg.Pool, acronyms: string[], role: Role | null): Promise<Map<string, string>> {
  if (acronyms.length === 0) return new Map();
  const { rows } = await pool.query<{ acronym: string; words: string; query: string }>(
    `SELECT a AS acronym, d.words, phraseto_tsquery('english', d.words)::text AS query
     FROM unnest($1::text[]) a
     JOIN search_terms s ON s.lexeme = lower(a) AND s.chunks < $3
     CROSS JOIN LATERAL (
       SELECT lower((regexp_match(c.extracted_text, '((?:[[:alpha:]]+[\\s-]+){' || length(a) - 1 || '}[[:alpha:]]+)\\s*\\(' || a || 's?\\)'))[1]) AS words
       FROM (SELECT c.extracted_text FROM manual_content c JOIN manuals m ON m.id = c.manual_id
             WHERE (${manualVisibleTo(role, 'm')}) IS TRUE AND c.search @@ plainto_tsquery('simple', a) LIMIT $2) c) d
     WHERE d.words IS NOT NULL`,
    [acronyms, ACRONYM_CHUNKS, COMMON_TERM_ROWS],
  );
  const expansions = new Map<string, string>();
  for (const r of rows) {
    const initials = r.words
      .split(/[\s-]+/)
      .map((w) => w[0])
      .join('');
    const acronym = r.acronym.toLowerCase();
    if (initials === acronym && r.query && !expansions.has(acronym)) expansions.set(acronym, r.query);
  }
  return expansions;
}

/** An acronym of the question ("ISR", "ISRs") also matches the words it stands for, as the same term. */
function spellOutAcronyms(terms: Term[], expansions: Map<string, string>): void {
  for (const t of terms) {
    const spelled = expansions.get(t.typed) ?? expansions.get(t.typed.replace(/s$/, ''));
    if (!spelled || t.isCode || t.anyOf) continue;
    Object.assign(t, anyOfQueries([t.query, spelled]));
  }
}

/**
 * The least share of the chunks holding a word that one manual holds, for the word to name that
 * manual. The bench's names are 100% in their manual; "user" and "manual" reach 85-86% in its
 * library, where one manual holds 72% of the chunks, so 0.95 keeps a margin from them.
 */
export const NAME_SHARE = 0.95;

/**
 * The manuals the caller may read that the question names: a word of the question in a manual's
 * title that nearly all the chunks holding it belong to. A name is the manual's own word ("sdcc",
 * "ngspice"); a title's other words ("user", "compiler", "version") are in other manuals' pages
 * too. Only words in at most COMMON_TERM_ROWS chunks (search_terms) are looked at, so at most
 * that many chunks are counted per word in a large library too.
 */
async function findNamedManuals(pool: pg.Pool, terms: Term[], role: Role | null): Promise<Set<string>> {
  const rare = terms.filter((t) => t.rows > 0 && t.rows <= COMMON_TERM_ROWS);
  if (rare.length === 0) return new Set();
  const { rows } = await pool.query<{ id: string }>(
    `SELECT DISTINCT m.id
     FROM unnest($1::text[], $2::int[]) t(query, rows)
     -- Only a word in the title of a manual the caller may read is counted, in that manual's chunks.
     JOIN manuals m ON m.title_search @@ t.query::tsquery AND (${manualVisibleTo(role, 'm')}) IS TRUE
     CROSS JOIN LATERAL (
       SELECT count(*) AS held FROM manual_content c WHERE c.manual_id = m.id AND c.search @@ t.query::tsquery) c
     WHERE c.held >= $3::float8 * t.rows`,
    [rare.map((t) => t.query), rare.map((t) => t.rows), NAME_SHARE],
  );
  return new Set(rows.map((r) => r.id));
}

// Calibrated on bench/retrieval's tuned questions (bench/README.md).
/** Nearest words looked at for a word the library lacks, and how close in meaning each must be. */
export const STAND_IN_OPTIONS = { count: 5, minSimilarity: 0.6 };
/** A stand-in's weight, as a share of the weight of the word it stands in for. */
export const STAND_IN_WEIGHT = 0.5;

/**
 * For each word of the question that no chunk holds ("wipe" where the manual says "erase"), the
 * words nearest to it in meaning (word vectors) that the library does hold, as one term: their
 * disjunction, with the chunks it can be in. None when the embedder cannot say.
 */
async function findStandIns(
  deps: RetrievalDeps,
  missing: Term[],
  known: Term[],
  nearby: Promise<Map<string, Neighbour[]> | undefined>,
): Promise<(Term | undefined)[]> {
  const near = await nearby;
  if (!near) return [];
  const neighbours = missing.map((t) => near.get(t.typed) ?? []);
  const { rows } = await deps.pool.query<{ at: number; query: string; rows: string }>(
    `SELECT DISTINCT ON (at, q::text) at, q::text AS query, s.chunks AS rows
     FROM unnest($1::int[], $2::text[]) n(at, word)
     CROSS JOIN LATERAL (SELECT plainto_tsquery('english', word) AS q, tsvector_to_array(to_tsvector('english', word)) AS lexemes) l
     JOIN search_terms s ON cardinality(l.lexemes) = 1 AND s.lexeme = l.lexemes[1] AND s.chunks > 0
     WHERE NOT q::text = ANY($3::text[])`,
    [
      neighbours.flatMap((words, at) => words.map(() => at)),
      neighbours.flat().map((n) => n.word),
      known.map((t) => t.query),
    ],
  );
  return missing.map((t, at) => {
    const found = rows.filter((r) => r.at === at);
    if (found.length === 0) return undefined;
    return {
      ...anyOfQueries(found.map((r) => r.query)),
      rows: found.reduce((sum, r) => sum + Number(r.rows), 0),
      isCode: false,
      typed: t.typed,
    };
  });
}

/**
 * The words nearest in meaning to each of `words` (word vectors) by word, computed in the embedder's
 * question lane; undefined when the embedder cannot say.
 */
function nearestWordsOf(deps: RetrievalDeps, words: string[]): Promise<Map<string, Neighbour[]> | undefined> {
  if (words.length === 0) return Promise.resolve(new Map());
  const found = deps.embedder?.neighbours?.(words, STAND_IN_OPTIONS);
  return found
    ? found.then(
        (lists) => new Map(words.map((w, i) => [w, lists[i] ?? []])),
        () => undefined,
      )
    : Promise.resolve(undefined);
}

/** The lexemes of a tsquery's text, in order ('pn' <-> '4471' <-> 'b' gives pn, 4471, b). */
const lexemesOf = (query: string) => [...query.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));

/** The tsquery restricted to the heading: each lexeme of weight A ('pump' becomes 'pump':A). */
const inHeading = (query: string) => query.replace(/'((?:[^']|'')*)'/g, "'$1':A");

/** Inverse document frequency (BM25's), so a rare word outweighs a word on every page. */
const idf = (rows: number, chunks: number) => Math.log(1 + (Math.max(chunks, rows) - rows + 0.5) / (rows + 0.5));

/**
 * A term's weight: its rarity, judged as in a library of at least 1,000 chunks (in one of a few
 * chunks every term it has would count as common, and one word it lacks would outweigh them all)
 * and at most RARITY_CHUNKS; an identifier's twice.
 */
export const termWeight = (rows: number, chunks: number, isCode: boolean) =>
  idf(rows, Math.min(Math.max(chunks, 1000), RARITY_CHUNKS)) * (isCode ? 2 : 1);

export interface CandidateRow {
  id: string;
  manual_id: string;
  title: string;
  page_number: number | null;
  file_url: string;
  extracted_text: string;
  heading: string;
  embedding: Buffer | null;
  /** The embeddings of the entries the chunk lists (migration 029), one after another; empty or null when none. */
  entry_embeddings: Buffer | null;
  matched: number;
  in_heading: number;
  in_title: number;
  proximity: number;
  phrases: number;
  /** The chunk's search vector as text ('lexeme':positions ...), read for which words it holds. */
  lexemes: string;
  /** The same of its manual's title. */
  title_lexemes: string;
  /** The weight of each term found, as scored (a common term's raised by its rarity among the candidates). */
  weights: number[];
  /** The weight of all the question's terms. */
  total_weight: number;
  /** For each term that tells the manual (evidenceAt), how many candidates of the chunk's manual hold it. */
  held_by_manual: number[];
  /** How many chunks its manual has. */
  manual_chunks: string;
}

/**
 * The lexical candidates for a question among the manuals this caller may read, each with its
 * full-text score, its coverage of the question's terms and (when the question and the chunk have
 * embeddings) its cosine to the question. Candidates come from PostgreSQL full text with the
 * permission filter inside the query, so a passage of a manual the caller may not read is never
 * even ranked: chunks with every rare term, chunks with any rare term, and chunks with a code,
 * each bounded. They are scored there by the rarity of the terms they contain (a code outweighs
 * common words), terms in the section heading, and how close together the terms stand; the
 * question's embedding is computed in a worker thread meanwhile.
 */
export async function findCandidates(
  deps: RetrievalDeps,
  opts: { question: string; role: Role | null },
): Promise<ScoredCandidate<CandidateRow>[]> {
  const embedQuestion = (text: string) =>
    deps.embedder?.embed([spellOutTemperatures(text)], 'question').then(
      ([v]) => v,
      () => undefined,
    );
  let questionVector = embedQuestion(opts.question);
  const question = searchTerms(opts.question);
  const [statistics, compoundsFound, acronyms, splits, otherFormsFound, optionEntries, prefixedNames] =
    await Promise.all([
      termStatistics(deps.pool, question),
      findCompounds(deps.pool, question.pairs),
      findAcronyms(deps.pool, question.acronyms, opts.role),
      findSplits(deps.pool, question.words),
      findOtherForms(deps.pool, question.abbreviated),
      findOptionEntries(deps.pool, question.options),
      findPrefixedNames(deps, question.words),
    ]);
  const { terms, chunks } = statistics;
  searchOptionEntries(terms, optionEntries);
  const compounds = holdCompounds(terms, compoundsFound);
  spellOutAcronyms(terms, acronyms);
  const lacking = terms.filter((t) => t.rows === 0 && !t.isCode);
  // Whether the words the library lacks are common words, beside the look-ups that may hold them (foreignName).
  const commonFound = areCommonWords(
    deps,
    lacking.map((t) => t.typed),
  );
  // Asked first: whether words have vectors is a look-up in the embedder's thread, which would wait
  // there behind the search for the nearest words (milliseconds a word).
  const typosFound = findTypos(deps, terms);
  // Their nearest words are looked for beside the lookups that may find them held after all: a
  // stand-in is found only for a word still missing (findStandIns).
  const nearLacking = nearestWordsOf(
    deps,
    lacking.map((t) => t.typed),
  );
  // Read beside the candidate query: it only weighs the candidates (caught here, thrown where awaited).
  const namedManualsFound = findNamedManuals(deps.pool, terms, opts.role);
  namedManualsFound.catch(() => undefined);
  const [spellings, switchesOff, families, typos] = await Promise.all([
    findSpellings(deps.pool, lacking),
    findSwitchesOff(deps.pool, lacking),
    findFamilies(deps.pool, terms.filter(unheldCode)),
    typosFound,
  ]);
  // A British spelling is the surer reading of a word, so a typo is held only where none was found.
  const typosHeld = typos.filter((t) => !spellings.some((s) => s.typed === t.typed));
  // A pair of words with a typo is the phrase of the word meant ("nosie analysis" as noise analysis).
  const typedAs = new Map(
    typosHeld.flatMap((t) => {
      const term = terms.find((w) => w.typed === t.typed && !w.isCode);
      return term ? [[term.query, t.query] as const] : [];
    }),
  );
  holdSpellings(terms, [...typosHeld, ...spellings]);
  // The question as meant is embedded too (the vectors know no typo, so the typed question means less),
  // and its words are those the composed answer's sentences are weighed by.
  const meantQuestion = typosHeld.reduce(
    (q, t) => q.replace(new RegExp(`(?<!\\p{L})${t.typed}(?!\\p{L})`, 'giu'), t.form),
    opts.question,
  );
  if (typosHeld.length) questionVector = embedQuestion(meantQuestion);
  // An identifier no chunk holds is held where a member of its family is (findFamilies).
  holdAlso(terms, families, unheldCode);
  holdSplits(terms, splits);
  holdAlso(terms, [...otherFormsFound, ...switchesOff, ...prefixedNames], (t) => !t.isCode);
  // The question names a thing the library holds nowhere, and no common word: most often another vendor's
  // tool ("simulink", "codesys", "avr-objdump"). Read as a typo of a word the vectors know ("programer"),
  // as another spelling, a split or a short form, it is the library's word; read as a typo of another
  // name ("simulink" as "simuling", "eprom" as "eeprom"), it is still a name; a unit is none.
  const common = await commonFound;
  const foreignName = lacking.some(
    (t, i) =>
      common?.[i] === false &&
      (t.rows === 0 || typosHeld.some((h) => h.typed === t.typed && !h.known)) &&
      !afterNumber(opts.question, t.typed),
  );
  // A pair written as one word is the phrase too.
  const phrases = statistics.phrases
    .map((p) => [...typedAs].reduce((phrase, [typed, meant]) => phrase.split(typed).join(meant), p))
    .map((p) => (compounds.has(p) ? `(${p}) | (${compounds.get(p)})` : p));
  const optionLines = question.options.map(optionLinePattern);
  // A line that sets one of the question's words as a parameter ("METHOD=name sets the numerical
  // integration method") is where that parameter is described.
  const settingLines = question.words
    .filter((w) => /^\p{L}{3,}$/u.test(w))
    .map((w) => new RegExp(`^\\s*${w}\\s*=`, 'imu'));
  // A term in no chunk still counts against a passage's coverage: the library lacks it.
  const allWeights = terms.map((t) => termWeight(t.entryOf?.letterRows ?? t.rows, chunks, t.isCode));
  // A word the library lacks still counts against coverage, but its stand-in can earn part of it back.
  const missing = terms.flatMap((t, i) => (t.rows === 0 && !t.isCode ? [{ ...t, weight: allWeights[i]! }] : []));
  const standIns = missing.length ? await findStandIns(deps, missing, terms, nearLacking) : [];
  const found = [
    ...terms.flatMap((t, i) => (t.rows > 0 ? [{ ...t, weight: allWeights[i]! }] : [])),
    ...missing.flatMap((t, i) => {
      const standIn = standIns[i];
      return standIn ? [{ ...standIn, weight: STAND_IN_WEIGHT * t.weight }] : [];
    }),
  ];
  if (found.length === 0) return [];
  const weights = found.map((t) => t.weight);
  const rare = found.filter((t) => t.rows < COMMON_TERM_ROWS);
  const selecting = rare.length > 0 ? rare : found;
  // Any term: the rarest terms whose chunks fit in one way's rows together (at least the rarest),
  // so every chunk with one of them is a candidate rather than the first rows in table order. When
  // even the rarest is in more chunks than that, chunks with two of the three rarest terms instead.
  const byRarity = [...found].sort((a, b) => a.rows - b.rows);
  let rowsSoFar = 0;
  const fitting = byRarity.filter((t) => (rowsSoFar += t.rows) <= CANDIDATE_ROWS);
  const rarest = byRarity.slice(0, 3);
  const byPairs = fitting.length === 0 && rarest.length >= 2;
  // A term in more chunks than COMMON_TERM_ROWS (in a large library, a word of the boilerplate one
  // family of manuals repeats on every page: "warning", "supply") selects no candidate.
  const isCommon = (t: (typeof found)[number]) => t.rows >= COMMON_TERM_ROWS && !t.anyOf;
  // The chunks of the question's identifiers, but not of a common one: a number typed with its unit
  // apart ("5 MHz") read the first 1,500 of 109,472 chunks of a large library, none about it.
  const codeQuery =
    found
      .filter((t) => t.isCode && !isCommon(t))
      .map((t) => `(${t.query})`)
      .join(' | ') || null;
  // Chunks with two of the three rarest terms, each term common, are read in table order, most of
  // the query's time in a large library: never when the question names an identifier, whose chunks
  // are read instead (as many, and about what it asks), and only when too few chunks hold every term.
  const anyRare = !byPairs
    ? (fitting.length > 0 ? fitting : rarest).map((t) => `(${t.query})`).join(' | ')
    : codeQuery
      ? null
      : rarest.flatMap((a, i) => rarest.slice(i + 1).map((b) => `((${a.query}) & (${b.query}))`)).join(' | ');
  const everyRare = selecting.length > 1 ? selecting.map((t) => `(${t.query})`).join(' & ') : null;
  const every = found.map((t) => `(${t.query})`).join(' & ');
  // An option's entry has no position, which would make every proximity 0 (ts_rank_cd): a chunk
  // that holds every term is scored by how close its other terms stand.
  const positional = found
    .filter((t) => !t.entryOf)
    .map((t) => `(${t.query})`)
    .join(' & ');
  const totalWeight = allWeights.reduce((a, b) => a + b, 0);
  // Which manual the question's words belong to is told by the terms every chunk of which is a
  // candidate (those whose chunks fit in one way's rows), counted per manual (manualEvidence).
  const evidenceAt = fitting.map((t) => found.indexOf(t));
  // A chunk is visible unless its manual is one the caller may not read (every chunk has a manual;
  // a rule that comes out NULL hides, as in the REST policy):
  // those few listed once, where joining each way's rows to every manual took 6 ms a way at 10,000.
  const visible = `FROM manual_content c WHERE c.manual_id NOT IN (TABLE hidden)`;
  const matching = (param: string, also = '') =>
    `(SELECT c.id, c.manual_id, c.search, c.heading <> '' AS headed ${visible} AND ${param}::tsquery IS NOT NULL AND c.search @@ ${param}::tsquery ${also} LIMIT $5)`;
  const pairsNeeded = byPairs ? `AND (SELECT count(*) FROM every_way) < ${RERANK_ROWS}` : '';
  // A chunk found several ways is scored once, and `|| ''` detoasts its search vector once, before
  // the terms are matched against it. Scored in two steps: the cheap score over every candidate,
  // then the title bonus (per manual) and the text and embedding only for the best. A term
  // restricted to weight A matches the heading (so is not matched in a chunk without one, as the
  // generated chunks of a large library are). The terms are matched by one inline expression per
  // candidate, each tsquery a parameter of its own (a subquery per candidate cost several times more).
  // A manual's title is read as the vector stored with it (migration 022): made at each question,
  // it was a third of the time of a long question in a library of 1,000,000 chunks. The proximity
  // (ts_rank_cd) of a chunk that lacks one of the terms is 0: it is computed only for the chunks
  // that hold them all, where it was most of the rest.
  const termParams: string[] = [];
  const param = (query: string) => `$${9 + termParams.push(query)}::tsquery`;
  // Which terms each candidate holds, matched once; weighed once the weights are known.
  const holds = (queries: (string | null)[]) =>
    `ARRAY[${queries.map((q) => (q === null ? 'false' : `search @@ ${param(q)}`)).join(', ')}]`;
  const weighted = (held: string) =>
    `(${found.map((_, i) => `CASE WHEN ${held}[${i + 1}] THEN w[${i + 1}] ELSE 0 END`).join(' + ')})`;
  // A common term weighs nearly nothing in a large library, though among the passages the question
  // reaches it can tell them apart as well as in a small library: its weight is at least its rarity
  // among the candidates (chunks with the question's rarer terms).
  const weightOf = (t: (typeof found)[number], i: number) => {
    const inLibrary = `($7::float8[])[${i + 1}]`;
    if (!isCommon(t)) return inLibrary;
    const holding = `count(*) FILTER (WHERE held[${i + 1}])`;
    return `greatest(${inLibrary}, ${t.isCode ? 2 : 1} * ln(1 + (count(*) - ${holding} + 0.5) / (${holding} + 0.5))::float8)`;
  };
  const termWeights = found.some(isCommon)
    ? `SELECT ARRAY[${found.map(weightOf).join(', ')}] AS w FROM matches`
    : 'SELECT $7::float8[] AS w';
  const { rows } = await transaction(
    deps.pool,
    (client) =>
      client.query<CandidateRow>(
        `WITH hidden AS MATERIALIZED (SELECT m.id FROM manuals m WHERE (${manualVisibleTo(opts.role, 'm')}) IS NOT TRUE),
     every_way AS ${matching('$1')},
     candidate AS (
       SELECT id, manual_id, search || ''::tsvector AS search, headed
       FROM (SELECT DISTINCT ON (id) * FROM (TABLE every_way UNION ALL ${matching('$2', pairsNeeded)} UNION ALL ${matching('$3')}) way) c),
     matches AS (
       SELECT id, manual_id,
         ${holds(found.map((t) => t.query))} AS held,
         CASE WHEN headed THEN ${holds(found.map((t) => (t.entryOf ? null : inHeading(t.query))))} END AS held_in_heading,
         CASE WHEN search @@ $4::tsquery THEN ${positional ? `ts_rank_cd(search, ${positional === every ? '$4::tsquery' : param(positional)}, 1)` : 0} ELSE 0 END AS proximity,
         (${phrases.map((p) => `(search @@ ${param(p)})::int`).join(' + ') || '0'})::float8 / ${Math.max(phrases.length, 1)} AS phrases
       FROM candidate),
     share AS MATERIALIZED (SELECT w, $9 + (SELECT sum(a - b) FROM unnest(w, $7::float8[]) x(a, b)) AS total FROM (${termWeights}) t),
     scored AS (
       SELECT id, manual_id, ${weighted('held')} AS matched, ${weighted('held_in_heading')} AS in_heading, proximity, phrases
       FROM matches, share),
     titled AS (
       SELECT m.id, (SELECT coalesce(sum(w), 0) FROM unnest($6::tsquery[], (SELECT w FROM share)) t(q, w) WHERE m.title_search @@ q) AS in_title
       FROM manuals m WHERE m.id IN (SELECT DISTINCT manual_id FROM candidate)),
     best AS (
       SELECT s.*, t.in_title FROM scored s JOIN titled t ON t.id = s.manual_id
       ORDER BY (matched + ${HEADING_WEIGHT} * in_heading + ${TITLE_WEIGHT} * in_title) / (SELECT total FROM share) + ${PROXIMITY_WEIGHT} * proximity + ${PHRASE_WEIGHT} * phrases DESC, id LIMIT $8),
     by_manual AS (
       SELECT manual_id, ARRAY[${evidenceAt.map((i) => `count(*) FILTER (WHERE held[${i + 1}])`).join(', ')}]::int[] AS held_by_manual,
         (SELECT count(*) FROM manual_content mc WHERE mc.manual_id = matches.manual_id) AS manual_chunks
       FROM matches WHERE manual_id IN (SELECT manual_id FROM best) GROUP BY manual_id)
     SELECT b.*, bm.held_by_manual, bm.manual_chunks, c.page_number, c.extracted_text, c.heading, c.embedding, c.entry_embeddings, c.search::text AS lexemes,
       m.title_search::text AS title_lexemes, m.title, m.file_url, (SELECT w FROM share) AS weights, (SELECT total FROM share) AS total_weight
     FROM best b JOIN manual_content c ON c.id = b.id JOIN manuals m ON m.id = b.manual_id
       LEFT JOIN by_manual bm ON bm.manual_id = b.manual_id`,
        [
          everyRare,
          anyRare,
          codeQuery,
          every,
          CANDIDATE_ROWS,
          found.map((t) => t.query),
          weights,
          RERANK_ROWS,
          totalWeight,
          ...termParams,
        ],
      ),
    CANDIDATE_QUERY_BEGIN,
  );
  const vector = await questionVector;
  const namedManuals = await namedManualsFound;
  // The weights as scored, the same in every row.
  const scoredWeight = new Map(found.map((t, i) => [t.query, Number(rows[0]?.weights[i] ?? t.weight)]));
  const scoredTotal = Number(rows[0]?.total_weight ?? totalWeight);
  const words = terms.flatMap((t, i) =>
    t.isCode ? [] : [{ ...t, weight: scoredWeight.get(t.query) ?? allWeights[i]! }],
  );
  const wordWeight = words.reduce((sum, t) => sum + t.weight, 0);
  // The question's words as the composed answer reads them (no stop words), its identifiers as searched (20% also as 0.2).
  const sentenceTerms = {
    words: questionTerms(meantQuestion).words,
    codes: question.codes,
    names: prefixedNames.map((n): [string, string] => [n.typed, lexemesOf(n.query)[0]!]),
  };
  const standInTerms = found
    .filter((t) => t.anyOf && missing.some((m) => m.typed === t.typed))
    .map((t) => ({ ...t, weight: scoredWeight.get(t.query)! }));
  // The share of the question the library lacks altogether: the same for every candidate (relevanceScore).
  const lackingShare = missing.reduce((sum, t) => sum + t.weight, 0) / scoredTotal;
  const mates = pageMates(rows.map((row) => ({ manual: row.manual_id, page: row.page_number })));
  // The question's own terms as scored (a stand-in's alternatives are not counted).
  const frequencies = termFrequencies(
    rows.map((row) => row.extracted_text),
    found.flatMap((t) => (t.anyOf ? [] : [{ ...t, weight: scoredWeight.get(t.query)! }])),
  );
  const holders = rows.map((row) => {
    const holds = (query: string) =>
      lexemesOf(query).every((l) => vectorHolds(row.lexemes, l) || vectorHolds(row.title_lexemes, l));
    return (t: Term) => (t.anyOf ? t.anyOf.some(holds) : holds(t.query));
  });
  // The question's identifiers say which manual it is about: when one manual's candidates alone hold them (soleManual).
  const codes = found.filter((t) => t.isCode && !t.anyOf);
  const sole = soleManual(rows.map((row, i) => ({ manual: row.manual_id, holds: codes.some(holders[i]!) })));
  // The entries of the question's short options the library has (searchOptionEntries).
  const entries = found.filter((t) => t.entryOf);
  // How far below the likeliest candidate manual each candidate's is, for the question's rare words (manualEvidence).
  const manualIds = [...new Set(rows.map((row) => row.manual_id))];
  const gaps = evidenceGaps(
    manualEvidence(
      manualIds.map((id) => {
        const row = rows.find((r) => r.manual_id === id)!;
        return { held: row.held_by_manual.map(Number), chunks: Number(row.manual_chunks) };
      }),
      evidenceAt.map((i) => ({ rows: found[i]!.rows, weight: scoredWeight.get(found[i]!.query)! })),
      chunks,
    ),
  );
  const otherManual = rows.map((row) => gaps[manualIds.indexOf(row.manual_id)]!);
  return rows.map((row, i) => {
    const has = holders[i]!;
    const wordsHeld = [...words, ...standInTerms].reduce((sum, t) => sum + (has(t) ? t.weight : 0), 0);
    const features: LexicalFeatures = {
      wordCoverage: wordWeight ? wordsHeld / wordWeight : 0,
      coverage: Number(row.matched) / scoredTotal,
      lacking: lackingShare,
      foreignName,
      heading: Number(row.in_heading) / scoredTotal,
      title: Number(row.in_title) / scoredTotal,
      proximity: Number(row.proximity),
      phrases: Number(row.phrases),
      optionLines: optionLines.length
        ? optionLines.filter((line) => line.test(row.extracted_text)).length / optionLines.length
        : 0,
      settingLine: row.extracted_text.includes('=') && settingLines.some((line) => line.test(row.extracted_text)),
      optionEntry: entries.some(has),
      bestSentence: bestSentenceShare(row.extracted_text, sentenceTerms),
      namedManual: namedManuals.has(row.manual_id),
      soleManual: sole[i],
      otherManual: otherManual[i],
      pageMates: mates[i],
      frequency: frequencies[i],
      definingEntry: opensWithAnswer(row.extracted_text, sentenceTerms),
    };
    return {
      row,
      features,
      lexical: lexicalScore(features),
      coverage: features.coverage,
      semantic: vector && row.embedding?.length ? cosine(vector, row.embedding) : undefined,
      entrySemantic: vector && row.entry_embeddings?.length ? closestEntry(vector, row.entry_embeddings) : undefined,
      listing: isListing(row.extracted_text),
      place: { manual: row.manual_id, page: row.page_number, heading: row.heading },
      fenced: Math.min(
        1,
        fencedShare(embeddedText(row.extracted_text)) + namesShare(row.extracted_text, EMBEDDED_CHARS),
      ),
    };
  });
}

/**
 * Whether a tsvector's text ('pump':3,7A 'valv':5) holds the lexeme: found quoted as it prints it
 * (a quote doubled), at the start of an entry and ending it. Looked up rather than every lexeme of
 * each candidate parsed, which was about a fifth of the work on the candidates outside the queries.
 */
function vectorHolds(vector: string, lexeme: string): boolean {
  const quoted = `'${lexeme.replace(/'/g, "''")}'`;
  for (let at = vector.indexOf(quoted); at !== -1; at = vector.indexOf(quoted, at + 1)) {
    const after = vector[at + quoted.length];
    if ((at === 0 || vector[at - 1] === ' ') && (after === undefined || after === ':' || after === ' ')) return true;
  }
  return false;
}

/**
 * The passages of the manuals this caller may read that best answer the question, and whether
 * any answers it at all: the lexical candidates (findCandidates) reranked by fusing their
 * full-text score with the similarity of their stored embedding to the question's, and the first
 * page of a section brought forward among the best (bringOpeningsForward).
 */
export async function retrievePassages(
  deps: RetrievalDeps,
  opts: { question: string; role: Role | null; limit?: number },
): Promise<Retrieval> {
  const ranked = fuseScores(await findCandidates(deps, opts));
  const toPassage = ({ row, score }: (typeof ranked)[number]): Passage => ({
    chunkId: row.id,
    manualId: row.manual_id,
    title: row.title,
    page: row.page_number,
    fileUrl: row.file_url,
    text: row.extracted_text,
    heading: row.heading,
    score,
  });
  if (!answersQuestion(ranked))
    return { passages: [], relevant: false, suggestions: ranked.slice(0, SUGGESTION_LIMIT).map(toPassage) };
  return {
    passages: bringOpeningsForward(bringEntriesForward(holdBackOtherManuals(ranked)))
      .slice(0, opts.limit ?? PASSAGE_LIMIT)
      .map(toPassage),
    relevant: true,
    suggestions: [],
  };
}

/** Cosine of a unit question vector and a stored unit vector (float32, little-endian). */
function cosine(question: Float32Array, stored: Buffer): number {
  const vector = new Float32Array(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength));
  let dot = 0;
  for (let i = 0; i < Math.min(question.length, vector.length); i++) dot += question[i]! * vector[i]!;
  return dot;
}

/** The greatest cosine of a unit question vector and stored unit vectors of its length, one after another. */
function closestEntry(question: Float32Array, stored: Buffer): number {
  // Copied once: a Float32Array needs an aligned offset, which a bytea read from pg may not have.
  const vectors = new Float32Array(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength));
  let best = -Infinity;
  for (let at = 0; at + question.length <= vectors.length; at += question.length) {
    let dot = 0;
    for (let i = 0; i < question.length; i++) dot += question[i]! * vectors[at + i]!;
    best = Math.max(best, dot);
  }
  return best;
}
