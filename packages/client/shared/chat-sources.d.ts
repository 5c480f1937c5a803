import type { z } from 'zod';

/** A manual page a chat answer cites as [n] (sources[n - 1]). */
export interface ChatSource {
  manualId: string;
  title: string;
  page: number | null;
  fileUrl: string;
  /** Words of the passage as printed on the page, to find and highlight it there. */
  quote?: string;
  /** The page holds a figure, a diagram or a ruled table: the answer shows a small image of it. */
  hasFigure?: boolean;
  /** Where on the page the figure is, in PDF units (points, y upwards): left, bottom, right, top. Absent: the whole page. */
  figureBox?: [number, number, number, number];
}

export declare const ZChatSource: z.ZodType<ChatSource>;
export declare function chatSourcesOf(data: unknown): ChatSource[];

/** A page offered when the manuals hold no answer (`data-suggestions`): opened as a source is, never cited. */
export interface ChatSuggestion {
  manualId: string;
  title: string;
  page: number | null;
  fileUrl: string;
  /** The section heading the page's passage sits under ('' when none is known). */
  heading: string;
}

export declare const ZChatSuggestion: z.ZodType<ChatSuggestion>;
export declare function chatSuggestionsOf(data: unknown): ChatSuggestion[];
/** `Title, page N (heading)`: a suggestion's line in the answer's text. */
export declare function suggestionLabel(suggestion: Pick<ChatSuggestion, 'title' | 'page' | 'heading'>): string;
