import type pg from 'pg';
import type { ChatSource } from '@fieldassist/client/chat-sources';

/**
 * Marks the sources whose page holds a figure, a diagram or a ruled table (found at ingestion,
 * manuals.figure_pages): the web app shows a small image of such a page under the passage.
 */
export async function markFigurePages(pool: pg.Pool, sources: ChatSource[]): Promise<ChatSource[]> {
  const ids = [...new Set(sources.filter((s) => s.page !== null).map((s) => s.manualId))];
  if (ids.length === 0) return sources;
  const { rows } = await pool.query<{ id: string; figure_pages: number[] }>(
    'SELECT id, figure_pages FROM manuals WHERE id = ANY($1)',
    [ids],
  );
  const figures = new Map(rows.map((r) => [r.id, new Set(r.figure_pages)]));
  return sources.map((s) => (s.page !== null && figures.get(s.manualId)?.has(s.page) ? { ...s, hasFigure: true } : s));
}
