import type pg from 'pg';
import type { Role } from '../../auth/caller.js';
import { manualVisibleTo } from '../manuals/visibility.js';

export interface Passage {
  chunkId: string;
  manualId: string;
  title: string;
  page: number | null;
  fileUrl: string;
  text: string;
}

/** At most this many passages go to the model. */
export const PASSAGE_LIMIT = 6;
/** A library this small is sent whole: every passage may matter and ranking has little to work with. */
const SMALL_LIBRARY_CHUNKS = 12;

/**
 * Splits a question into search terms: words go to the English stemmer, terms with a digit
 * (part numbers, error codes such as PN-4471-B or E42) are matched as typed.
 */
export function searchTerms(question: string): { words: string[]; codes: string[] } {
  const tokens = question.toLowerCase().split(/[^\p{L}\p{N}._/-]+/u).map((t) => t.replace(/^[._/-]+|[._/-]+$/g, '')).filter((t) => t.length > 0 && t.length <= 64);
  const unique = [...new Set(tokens)].slice(0, 40);
  return { words: unique.filter((t) => !/\d/.test(t)), codes: unique.filter((t) => /\d/.test(t)) };
}

/**
 * At most this many rows per way of matching are ranked. Ranking reads every matched row, so
 * a question of common words ("error", "check", "supply") must not rank a whole large library.
 */
const CANDIDATES_PER_MATCH = 300;

/** The question as three tsqueries (text): any word, every word (English stems), any code (as typed). */
async function buildQueries(pool: pg.Pool, words: string[], codes: string[]) {
  const { rows } = await pool.query<{ any_word: string | null; every_word: string | null; codes: string | null }>(
    `SELECT
       (SELECT string_agg(x::text, ' | ') FROM (SELECT plainto_tsquery('english', w) AS x FROM unnest($1::text[]) w) s WHERE x::text <> '') AS any_word,
       (SELECT string_agg(x::text, ' & ') FROM (SELECT plainto_tsquery('english', w) AS x FROM unnest($1::text[]) w) s WHERE x::text <> '') AS every_word,
       (SELECT string_agg(x::text, ' | ') FROM (SELECT phraseto_tsquery('simple', c) AS x FROM unnest($2::text[]) c) s WHERE x::text <> '') AS codes`,
    [words, codes],
  );
  return rows[0]!;
}

/**
 * The passages of the manuals this caller may read that best answer the question: full-text
 * ranking in PostgreSQL with the permission filter inside the same query, so a passage from a
 * manual the caller may not read is never even ranked. A code named in the question outweighs
 * any number of shared words.
 *
 * Candidates come from the GIN index three ways, each capped: rows with a code, rows with every
 * word, rows with any word; only they are ranked. Where a match set outgrows its cap, the rows
 * with a code or with every word are the ones that rank first anyway. The tsqueries are built
 * first and sent as values, so the planner sees how common each term is (a word in every chunk
 * is read by a scan that stops at the cap, not by building the whole bitmap from the index).
 */
export async function retrievePassages(pool: pg.Pool, opts: { question: string; role: Role | null; limit?: number }): Promise<Passage[]> {
  const { words, codes } = searchTerms(opts.question);
  const limit = opts.limit ?? PASSAGE_LIMIT;
  const queries = await buildQueries(pool, words, codes);
  const columns = 'c.id, c.manual_id, c.chunk_index, c.page_number, c.extracted_text, c.search, m.title, m.file_url';
  const visible = `FROM manual_content c JOIN manuals m ON m.id = c.manual_id WHERE ${manualVisibleTo(opts.role, 'm')}`;
  const matching = (param: string) => `(SELECT ${columns} ${visible} AND c.search @@ ${param}::tsquery LIMIT $6)`;
  // A chunk found two ways comes twice: the query keeps enough rows that dropping repeats leaves `limit`.
  const { rows } = await pool.query<{ id: string; manual_id: string; title: string; page_number: number | null; file_url: string; extracted_text: string; whole: boolean }>(
    `WITH small AS (SELECT count(*) <= $5 AS whole FROM (SELECT 1 ${visible} LIMIT $5 + 1) v),
     candidate AS (
       (SELECT ${columns} ${visible} AND (SELECT whole FROM small) LIMIT $5)
       UNION ALL ${matching('$3')} UNION ALL ${matching('$2')} UNION ALL ${matching('$1')}
     )
     SELECT id, manual_id, title, page_number, file_url, extracted_text, (SELECT whole FROM small) AS whole FROM candidate
     ORDER BY
       (CASE WHEN $3::tsquery IS NOT NULL AND search @@ $3::tsquery THEN 10 ELSE 0 END)
       + (CASE WHEN $1::tsquery IS NOT NULL THEN ts_rank(search, $1::tsquery) ELSE 0 END) DESC,
       manual_id, chunk_index
     LIMIT (SELECT CASE WHEN whole THEN $5 ELSE $4 END FROM small) * 4`,
    // With one word, every word is any word: that match is not made twice.
    [queries.any_word, queries.every_word === queries.any_word ? null : queries.every_word, queries.codes, limit, SMALL_LIBRARY_CHUNKS, CANDIDATES_PER_MATCH],
  );
  const seen = new Set<string>();
  const unique = rows.filter((r) => !seen.has(r.id) && seen.add(r.id)).slice(0, rows[0]?.whole ? SMALL_LIBRARY_CHUNKS : limit);
  return unique.map((r) => ({ chunkId: r.id, manualId: r.manual_id, title: r.title, page: r.page_number, fileUrl: r.file_url, text: r.extracted_text }));
}
