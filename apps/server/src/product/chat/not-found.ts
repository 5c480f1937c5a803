import { type ChatSuggestion, suggestionLabel } from '@fieldassist/client/chat-sources';
import type { Passage } from '../retrieval/retrieve.js';

/** The first words of every answer for which the library has nothing relevant enough (issue 15). */
export const NOT_FOUND_NOTICE = "I couldn't find this in your manuals.";

/**
 * The start of an answer the manuals do not cover: the notice, then the closest pages, one a
 * line as suggestionLabel names them (the app finds these lines to make them open the page),
 * marked as suggestions that may not answer the question. Markdown, like a model's answer.
 */
export function notFoundAnswer(suggestions: ChatSuggestion[]): string {
  if (suggestions.length === 0) return NOT_FOUND_NOTICE;
  const pages = suggestions.map((s) => `- ${suggestionLabel(s)}`);
  return `${NOT_FOUND_NOTICE}\n\n**Suggestions only, these may not answer your question:** the closest pages in your manuals are\n\n${pages.join('\n')}`;
}

/** The suggested pages as the `data-suggestions` part carries them: what opens each page, and its heading. */
export function presentSuggestions(passages: Passage[]): ChatSuggestion[] {
  return passages.map(({ manualId, title, page, fileUrl, heading }) => ({ manualId, title, page, fileUrl, heading }));
}
