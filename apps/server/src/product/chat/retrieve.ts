import type pg from 'pg';
import type { Role } from '../../auth/caller.js';

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
 * The passages of the manuals this caller may read that best answer the question: full-text
 * ranking in PostgreSQL with the permission filter inside the same query, so a passage from a
 * manual the caller may not read is never even ranked. A code named in the question outweighs
 * any number of shared words.
 */
export async function retrievePassages(pool: pg.Pool, opts: { question: string; role: Role | null; limit?: number }): Promise<Passage[]> {
  const { words, codes } = searchTerms(opts.question);
  const seesPlanners = opts.role === 'admin' || opts.role === 'technician';
  const limit = opts.limit ?? PASSAGE_LIMIT;
  const { rows } = await pool.query<{ id: string; manual_id: string; title: string; page_number: number | null; file_url: string; extracted_text: string }>(
    `WITH q AS (
       SELECT
         (SELECT string_agg(x::text, ' | ') FROM (SELECT plainto_tsquery('english', w) AS x FROM unnest($1::text[]) w) s WHERE x::text <> '')::tsquery AS words,
         (SELECT string_agg(x::text, ' | ') FROM (SELECT phraseto_tsquery('simple', c) AS x FROM unnest($2::text[]) c) s WHERE x::text <> '')::tsquery AS codes
     ),
     visible AS (
       SELECT c.id, c.manual_id, c.page_number, c.chunk_index, c.extracted_text, c.search, m.title, m.file_url
       FROM manual_content c JOIN manuals m ON m.id = c.manual_id
       WHERE ($3 OR m.document_type <> 'system_planner')
     ),
     small AS (SELECT count(*) <= $5 AS whole FROM (SELECT 1 FROM visible LIMIT $5 + 1) v)
     SELECT v.id, v.manual_id, v.title, v.page_number, v.file_url, v.extracted_text
     FROM visible v, q, small
     WHERE small.whole OR v.search @@ coalesce(q.words, ''::tsquery) OR v.search @@ coalesce(q.codes, ''::tsquery)
     ORDER BY
       (CASE WHEN q.codes IS NOT NULL AND v.search @@ q.codes THEN 10 ELSE 0 END)
       + (CASE WHEN q.words IS NOT NULL THEN ts_rank(v.search, q.words) ELSE 0 END) DESC,
       v.manual_id, v.chunk_index
     LIMIT (SELECT CASE WHEN whole THEN $5 ELSE $4 END FROM small)`,
    [words, codes, seesPlanners, limit, SMALL_LIBRARY_CHUNKS],
  );
  return rows.map((r) => ({ chunkId: r.id, manualId: r.manual_id, title: r.title, page: r.page_number, fileUrl: r.file_url, text: r.extracted_text }));
}
