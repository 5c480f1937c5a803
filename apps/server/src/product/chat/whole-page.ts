import type pg from 'pg';
import type { Passage } from '../retrieval/retrieve.js';

/** Joins a page's chunks in order, dropping the text a chunk repeats from the end of the one before. */
export function stitchChunks(chunks: string[]): string {
  let text = '';
  for (const chunk of chunks) {
    let repeated = Math.min(text.length, chunk.length, 400);
    while (repeated > 0 && !text.endsWith(chunk.slice(0, repeated))) repeated--;
    // Fewer than 20 characters in common is a coincidence, not an overlap.
    text = !text ? chunk : repeated >= 20 ? text + chunk.slice(repeated) : `${text}\n\n${chunk}`;
  }
  return text;
}

/**
 * The best passage widened to its whole page: a problem's solution, the table after "use the
 * following pin mapping:" or the command after "run:" often sit in the next chunk of the page.
 * The page is the manual's own, already found readable by this caller. The page's text starts with
 * its first chunk, so it takes that chunk's heading (the option entry the page goes on with, composeAnswer).
 */
export async function widenToPage(pool: pg.Pool, passages: Passage[]): Promise<Passage[]> {
  const [best, ...rest] = passages;
  if (!best || best.page === null) return passages;
  const { rows } = await pool.query<{ extracted_text: string; heading: string }>(
    'SELECT extracted_text, heading FROM manual_content WHERE manual_id = $1 AND page_number = $2 ORDER BY chunk_index LIMIT 20',
    [best.manualId, best.page],
  );
  return rows.length > 1
    ? [{ ...best, heading: rows[0]!.heading, text: stitchChunks(rows.map((r) => r.extracted_text)) }, ...rest]
    : passages;
}
