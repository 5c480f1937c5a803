import type pg from 'pg';
import type { ChatSource } from '@fieldassist/client/chat-sources';

type Marks = (sources: ChatSource[]) => ChatSource[];

/**
 * Reads which pages of the manuals of `places` hold a figure, a diagram or a ruled table (found at
 * ingestion, manuals.figure_pages), with where on the page it is when known (manuals.figure_boxes),
 * and returns what marks such sources: the web app shows a small image of the figure under the
 * passage. Read from the passages before the answer's sources are known, so the query runs while the
 * answer is made (the sources are pages of those passages' manuals).
 */
export async function readFigurePages(pool: pg.Pool, places: Pick<ChatSource, 'manualId' | 'page'>[]): Promise<Marks> {
  const ids = [...new Set(places.filter((s) => s.page !== null).map((s) => s.manualId))];
  if (ids.length === 0) return (sources) => sources;
  const { rows } = await pool.query<{
    id: string;
    figure_pages: number[];
    figure_boxes: Record<string, [number, number, number, number]>;
  }>('SELECT id, figure_pages, figure_boxes FROM manuals WHERE id = ANY($1)', [ids]);
  const manuals = new Map(rows.map((r) => [r.id, r]));
  return (sources) =>
    sources.map((s) => {
      const manual = manuals.get(s.manualId);
      if (s.page === null || !manual?.figure_pages.includes(s.page)) return s;
      const figureBox = manual.figure_boxes[s.page];
      return { ...s, hasFigure: true, ...(figureBox ? { figureBox } : {}) };
    });
}
