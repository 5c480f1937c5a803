import type pg from 'pg';
import type { ChatSource } from '@fieldassist/client/chat-sources';

/**
 * Marks the sources whose page holds a figure, a diagram or a ruled table (found at ingestion,
 * manuals.figure_pages), with where on the page it is when known (manuals.figure_boxes): the web
 * app shows a small image of the figure under the passage.
 */
export async function markFigurePages(pool: pg.Pool, sources: ChatSource[]): Promise<ChatSource[]> {
  const ids = [...new Set(sources.filter((s) => s.page !== null).map((s) => s.manualId))];
  if (ids.length === 0) return sources;
  const { rows } = await pool.query<{
    id: string;
    figure_pages: number[];
    figure_boxes: Record<string, [number, number, number, number]>;
  }>('SELECT id, figure_pages, figure_boxes FROM manuals WHERE id = ANY($1)', [ids]);
  const manuals = new Map(rows.map((r) => [r.id, r]));
  return sources.map((s) => {
    const manual = manuals.get(s.manualId);
    if (s.page === null || !manual?.figure_pages.includes(s.page)) return s;
    const figureBox = manual.figure_boxes[s.page];
    return { ...s, hasFigure: true, ...(figureBox ? { figureBox } : {}) };
  });
}
