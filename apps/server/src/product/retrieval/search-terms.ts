/**
 * Splits a question into search terms: words go to the English stemmer; identifiers (terms
 * with a digit, such as PN-4471-B, E42 or 0x1F, and names with an underscore or inner capital,
 * such as gpio_set_level or setTimeout) are matched as typed.
 */
export function searchTerms(question: string): { words: string[]; codes: string[]; pairs: string[] } {
  const tokens = question
    .split(/[^\p{L}\p{N}._/-]+/u)
    .map((t) => t.replace(/^[._/-]+|[._/-]+$/g, ''))
    .filter((t) => t.length > 0 && t.length <= 64);
  const isCode = (t: string) => /\d/.test(t) || /_/.test(t) || /\p{Ll}\p{Lu}/u.test(t);
  const unique = [...new Set(tokens.map((t) => (isCode(t) ? t : t.toLowerCase())))].slice(0, 40);
  // Neighbouring words, matched as phrases: "rise time", "make install", "initial conditions".
  const pairs = [...new Set(tokens.slice(1).map((t, i) => `${tokens[i]} ${t}`.toLowerCase()))].slice(0, 20);
  return { words: unique.filter((t) => !isCode(t)), codes: unique.filter(isCode).map((t) => t.toLowerCase()), pairs };
}
