// The chat stream's `data-sources` part (PLATFORM_API.md 5.2): the manual pages an answer cites
// as [n], sources[n - 1]; and its `data-suggestions` part: the closest pages offered when the
// manuals hold no answer, never cited. The server builds them typed from this schema; the client SDK and the
// web app read what arrives (the stream, a saved chatMessages row) through it. Plain JavaScript
// with its types beside it, as roles.js.
import { z } from 'zod';

export const ZChatSource = z.object({
  manualId: z.string(),
  title: z.string(),
  page: z.number().nullable(),
  fileUrl: z.string(),
  /** Words of the passage as printed on the page, to find and highlight it there. */
  quote: z.string().optional(),
  /** The page holds a figure, a diagram or a ruled table: the answer shows a small image of it. */
  hasFigure: z.boolean().optional(),
  /**
   * Where on the page the figure is, in PDF units (points, y upwards): left, bottom, right, top.
   * Absent (answers saved before it, manuals ingested before it) or malformed: the whole page is shown.
   */
  figureBox: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional().catch(undefined),
});

/** The sources in a `data-sources` part (or a saved answer): each item that fits; the rest are left out. */
export function chatSourcesOf(data) {
  if (!Array.isArray(data)) return [];
  return data.flatMap((item) => {
    const result = ZChatSource.safeParse(item);
    return result.success ? [result.data] : [];
  });
}

/**
 * A page offered as a suggestion when the manuals hold no answer: opened in the viewer as a
 * source is, but never one of the answer's sources. `heading`: the section it sits under ('' when none).
 */
export const ZChatSuggestion = ZChatSource.pick({ manualId: true, title: true, page: true, fileUrl: true }).extend({
  heading: z.string(),
});

/** The suggestions in a `data-suggestions` part (or a saved answer): each item that fits; the rest are left out. */
export function chatSuggestionsOf(data) {
  if (!Array.isArray(data)) return [];
  return data.flatMap((item) => {
    const result = ZChatSuggestion.safeParse(item);
    return result.success ? [result.data] : [];
  });
}

/**
 * `Title, page N (heading)`: a suggestion's line in the answer's text, as the server writes it
 * and as the app finds it there to make it open the page.
 */
export function suggestionLabel({ title, page, heading }) {
  return `${title}${page ? `, page ${page}` : ''}${heading ? ` (${heading})` : ''}`;
}
