import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { manualVisibleTo } from '../manuals/visibility.js';
import type { Embedder } from './embedder.js';
import {
  decideRelevance,
  fuseScores,
  HEADING_WEIGHT,
  type LexicalFeatures,
  lexicalScore,
  PHRASE_WEIGHT,
  PROXIMITY_WEIGHT,
  type ScoredCandidate,
  TITLE_WEIGHT,
} from './rank.js';
import { searchTerms } from './search-terms.js';

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
  /** Embeds the question for semantic reranking; without it (or when it fails) ranking is lexical alone. */
  embedder?: Pick<Embedder, 'embed'>;
}

/** At most this many passages go to the model. */
export const PASSAGE_LIMIT = 6;
/** Suggestions offered when nothing is relevant. */
const SUGGESTION_LIMIT = 3;
/** A term in more chunks than this is common: it ranks, but does not select candidates. */
const COMMON_TERM_ROWS = 2000;
/** Candidates read per way of matching (bounded, because only rare terms select them). */
const CANDIDATE_ROWS = 1500;
/** The best lexical candidates that are reranked with their embeddings. */
const RERANK_ROWS = 60;

interface Term {
  query: string;
  rows: number;
  isCode: boolean;
}

/** A large library's terms are counted from PostgreSQL's statistics instead of the rows. */
const ESTIMATE_FROM_CHUNKS = 50_000;

/**
 * Each term as a tsquery (words through the English stemmer, codes as typed, as a phrase) with
 * the number of chunks it occurs in, and the library's size. Corpus counts only: no row is
 * returned. In a small library each term is counted, up to COMMON_TERM_ROWS, by a query of its
 * own with the tsquery as a value (so the planner sees how common it is). In a large one,
 * counting a term in a few percent of the chunks reads tens of thousands of rows, so the
 * counts come from ANALYZE's most common lexemes and their frequencies (pg_stats): a lexeme not
 * among them is rarer than the rarest listed.
 */
async function termStatistics(
  pool: pg.Pool,
  { words, codes, pairs }: ReturnType<typeof searchTerms>,
): Promise<{ terms: Term[]; chunks: number; phrases: string[] }> {
  const { rows: all } = await pool.query<{ query: string; kind: 'word' | 'code' | 'phrase' }>(
    `SELECT DISTINCT ON (q::text) q::text AS query, kind
     FROM (SELECT plainto_tsquery('english', w) AS q, 'word' AS kind FROM unnest($1::text[]) w
           UNION ALL SELECT phraseto_tsquery('simple', c), 'code' FROM unnest($2::text[]) c
           UNION ALL SELECT phraseto_tsquery('english', p), 'phrase' FROM unnest($3::text[]) p) t
     WHERE q::text <> '' AND (kind <> 'phrase' OR q::text LIKE '%<->%')`,
    [words, codes, pairs],
  );
  const {
    rows: [size],
  } = await pool.query<{ estimate: number; elems: string[] | null; freqs: number[] | null }>(
    `SELECT c.reltuples AS estimate, s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
     FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'manual_content' AND s.attname = 'search'
     WHERE c.oid = 'manual_content'::regclass`,
  );
  const rows = all.filter((r) => r.kind !== 'phrase');
  const phrases = all.filter((r) => r.kind === 'phrase').map((r) => r.query);
  if (size && size.estimate > ESTIMATE_FROM_CHUNKS && size.elems?.length && size.freqs) {
    const chunks = size.estimate;
    const frequency = new Map(size.elems.map((lexeme, i) => [lexeme, size.freqs![i]!]));
    const rarest = Math.min(...size.freqs.slice(0, size.elems.length));
    const count = (query: string) =>
      Math.round(chunks * Math.min(...lexemesOf(query).map((l) => frequency.get(l) ?? rarest / 2)));
    return {
      terms: rows.map((row) => ({
        query: row.query,
        rows: Math.max(1, count(row.query)),
        isCode: row.kind === 'code',
      })),
      chunks,
      phrases,
    };
  }
  const terms = await Promise.all(
    rows.map(async (row) => {
      const { rows: counted } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM (SELECT 1 FROM manual_content WHERE search @@ $1::tsquery LIMIT $2) s',
        [row.query, COMMON_TERM_ROWS],
      );
      return { query: row.query, rows: Number(counted[0]!.n), isCode: row.kind === 'code' };
    }),
  );
  const {
    rows: [exact],
  } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM manual_content');
  return { terms, chunks: Number(exact!.n), phrases };
}

/** The lexemes of a tsquery's text, in order ('pn' <-> '4471' <-> 'b' gives pn, 4471, b). */
const lexemesOf = (query: string) => [...query.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));

/** The tsquery restricted to the heading: each lexeme of weight A ('pump' becomes 'pump':A). */
const inHeading = (query: string) => query.replace(/'((?:[^']|'')*)'/g, "'$1':A");

/** Inverse document frequency (BM25's), so a rare word outweighs a word on every page. */
const idf = (rows: number, chunks: number) => Math.log(1 + (Math.max(chunks, rows) - rows + 0.5) / (rows + 0.5));

export interface CandidateRow {
  id: string;
  manual_id: string;
  title: string;
  page_number: number | null;
  file_url: string;
  extracted_text: string;
  heading: string;
  embedding: Buffer | null;
  matched: number;
  in_heading: number;
  in_title: number;
  proximity: number;
  phrases: number;
  /** The chunk's search vector as text ('lexeme':positions ...), read for which words it holds. */
  lexemes: string;
  /** The same of its manual's title. */
  title_lexemes: string;
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
  const questionVector = deps.embedder?.embed([opts.question], 'question').then(
    ([v]) => v,
    () => undefined,
  );
  const { terms, chunks, phrases } = await termStatistics(deps.pool, searchTerms(opts.question));
  // A term in no chunk still counts against a passage's coverage: the library lacks it. Rarity is
  // judged as in a library of at least 1,000 chunks: in one of a few chunks every term it has would
  // count as common, and one word it lacks would outweigh them all.
  const allWeights = terms.map((t) => idf(t.rows, Math.max(chunks, 1000)) * (t.isCode ? 2 : 1));
  const found = terms.flatMap((t, i) => (t.rows > 0 ? [{ ...t, weight: allWeights[i]! }] : []));
  if (found.length === 0) return [];
  const weights = found.map((t) => t.weight);
  const rare = found.filter((t) => t.rows < COMMON_TERM_ROWS);
  const selecting = rare.length > 0 ? rare : found;
  // With no rare term, "any term" would be most of a large library: chunks with two of the three rarest terms instead.
  const rarest = [...found].sort((a, b) => a.rows - b.rows).slice(0, 3);
  const anyRare =
    rare.length > 0 || rarest.length < 2
      ? selecting.map((t) => `(${t.query})`).join(' | ')
      : rarest.flatMap((a, i) => rarest.slice(i + 1).map((b) => `((${a.query}) & (${b.query}))`)).join(' | ');
  const everyRare = selecting.length > 1 ? selecting.map((t) => `(${t.query})`).join(' & ') : null;
  const codeQuery =
    found
      .filter((t) => t.isCode)
      .map((t) => `(${t.query})`)
      .join(' | ') || null;
  const every = found.map((t) => `(${t.query})`).join(' & ');
  const totalWeight = allWeights.reduce((a, b) => a + b, 0);
  const visible = `FROM manual_content c JOIN manuals m ON m.id = c.manual_id WHERE ${manualVisibleTo(opts.role, 'm')}`;
  // `|| ''` detoasts each candidate's search vector once, here, instead of once per term below.
  const matching = (param: string) =>
    `(SELECT c.id, c.manual_id, c.search || ''::tsvector AS search ${visible} AND ${param}::tsquery IS NOT NULL AND c.search @@ ${param}::tsquery LIMIT $5)`;
  // Scored in two steps: the cheap score over every candidate, then the title bonus (per manual)
  // and the text and embedding only for the best. A term restricted to weight A matches the heading.
  const { rows } = await deps.pool.query<CandidateRow>(
    `WITH candidate AS (${matching('$1')} UNION ALL ${matching('$2')} UNION ALL ${matching('$3')}),
     scored AS (
       SELECT DISTINCT ON (id) id, manual_id,
         (SELECT coalesce(sum(w), 0) FROM unnest($6::tsquery[], $7::float8[]) t(q, w) WHERE search @@ q) AS matched,
         (SELECT coalesce(sum(w), 0) FROM unnest($11::tsquery[], $7::float8[]) t(q, w) WHERE search @@ q) AS in_heading,
         ts_rank_cd(search, $4::tsquery, 1) AS proximity,
         (SELECT count(*) FROM unnest($9::tsquery[]) p WHERE search @@ p)::float8 / greatest(cardinality($9::tsquery[]), 1) AS phrases
       FROM candidate),
     titled AS (
       SELECT m.id, (SELECT coalesce(sum(w), 0) FROM unnest($6::tsquery[], $7::float8[]) t(q, w)
         WHERE (to_tsvector('english', m.title) || to_tsvector('simple', m.title)) @@ q) AS in_title
       FROM manuals m WHERE m.id IN (SELECT DISTINCT manual_id FROM candidate)),
     best AS (
       SELECT s.*, t.in_title FROM scored s JOIN titled t ON t.id = s.manual_id
       ORDER BY (matched + ${HEADING_WEIGHT} * in_heading + ${TITLE_WEIGHT} * in_title) / $10 + ${PROXIMITY_WEIGHT} * proximity + ${PHRASE_WEIGHT} * phrases DESC, id LIMIT $8)
     SELECT b.*, c.page_number, c.extracted_text, c.heading, c.embedding, c.search::text AS lexemes,
       (to_tsvector('english', m.title) || to_tsvector('simple', m.title))::text AS title_lexemes, m.title, m.file_url
     FROM best b JOIN manual_content c ON c.id = b.id JOIN manuals m ON m.id = b.manual_id`,
    [
      everyRare,
      anyRare,
      codeQuery,
      every,
      CANDIDATE_ROWS,
      found.map((t) => t.query),
      weights,
      RERANK_ROWS,
      phrases,
      totalWeight,
      found.map((t) => inHeading(t.query)),
    ],
  );
  const vector = await questionVector;
  const words = terms.flatMap((t, i) => (t.isCode ? [] : [{ ...t, weight: allWeights[i]! }]));
  const wordWeight = words.reduce((sum, t) => sum + t.weight, 0);
  return rows.map((row) => {
    const held = new Set([...lexemesIn(row.lexemes), ...lexemesIn(row.title_lexemes)]);
    const has = (t: Term) => lexemesOf(t.query).every((l) => held.has(l));
    const features: LexicalFeatures = {
      wordCoverage: wordWeight ? words.reduce((sum, t) => sum + (has(t) ? t.weight : 0), 0) / wordWeight : 0,
      coverage: Number(row.matched) / totalWeight,
      heading: Number(row.in_heading) / totalWeight,
      title: Number(row.in_title) / totalWeight,
      proximity: Number(row.proximity),
      phrases: Number(row.phrases),
    };
    return {
      row,
      features,
      lexical: lexicalScore(features),
      coverage: features.coverage,
      semantic: vector && row.embedding?.length ? cosine(vector, row.embedding) : undefined,
    };
  });
}

/** The lexemes of a tsvector's text ('pump':3,7A 'valv':5 gives pump, valv). */
const lexemesIn = (vector: string) =>
  new Set([...vector.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'")));

/**
 * The passages of the manuals this caller may read that best answer the question, and whether
 * any answers it at all: the lexical candidates (findCandidates) reranked by fusing their
 * full-text score with the similarity of their stored embedding to the question's.
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
  if (!decideRelevance(ranked[0]))
    return { passages: [], relevant: false, suggestions: ranked.slice(0, SUGGESTION_LIMIT).map(toPassage) };
  return { passages: ranked.slice(0, opts.limit ?? PASSAGE_LIMIT).map(toPassage), relevant: true, suggestions: [] };
}

/** Cosine of a unit question vector and a stored unit vector (float32, little-endian). */
function cosine(question: Float32Array, stored: Buffer): number {
  const vector = new Float32Array(stored.buffer.slice(stored.byteOffset, stored.byteOffset + stored.byteLength));
  let dot = 0;
  for (let i = 0; i < Math.min(question.length, vector.length); i++) dot += question[i]! * vector[i]!;
  return dot;
}
