import type { Passage } from '../retrieval/retrieve.js';

/** The first words of every answer for which the library has nothing relevant enough (issue 15). */
export const NOT_FOUND_NOTICE = "I couldn't find this in your manuals.";

/**
 * The start of an answer the manuals do not cover: the notice, then the closest pages,
 * marked as suggestions that may not answer the question. Markdown, like a model's answer.
 */
export function notFoundAnswer(suggestions: Passage[]): string {
  if (suggestions.length === 0) return NOT_FOUND_NOTICE;
  const pages = suggestions.map(
    (p) => `- ${p.title}${p.page ? `, page ${p.page}` : ''}${p.heading ? ` (${p.heading})` : ''}`,
  );
  return `${NOT_FOUND_NOTICE}\n\n**Suggestions only, these may not answer your question:** the closest pages in your manuals are\n\n${pages.join('\n')}`;
}
