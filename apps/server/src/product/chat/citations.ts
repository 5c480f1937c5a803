import type { AiTextPart } from '../../ai/provider.js';

// "[3]" or "[1, 2]" after a space, punctuation or the start: a citation of numbered excerpts ("a[3]" in code is not one).
const citation = /(\s?)(?<![\p{L}\p{N}_\]])\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/gu;
// What the end of a delta leaves open, held back until the next delta says what it is: an
// unfinished "[1, 2" or trailing spaces (a dropped citation takes the space before it), or one
// or two backticks of a fence.
const unfinished = /(?:\s*\[[\d,\s]{0,12}|\s+|(?<!`)`{1,2})$/;

/** Drops from each citation the numbers that name no excerpt (1..count); a citation left empty goes, with the space before it. */
export function keepKnownCitations(text: string, count: number): string {
  return text.replace(citation, (_whole, space: string, numbers: string) => {
    const known = numbers
      .split(',')
      .map((n) => Number(n.trim()))
      .filter((n) => n >= 1 && n <= count);
    return known.length === 0 ? '' : `${space}[${known.join(', ')}]`;
  });
}

/**
 * A model's answer with every citation of an excerpt it was not given removed, as it streams.
 * A delta that ends inside a possible citation waits for the next one; code (between ```
 * fences) is passed as written.
 */
export async function* withKnownCitations(parts: AsyncIterable<AiTextPart>, count: number): AsyncIterable<AiTextPart> {
  let held = '';
  let inCode = false;
  // The last character sent: "a" then "[9]" in the next delta is an index, not a citation.
  let before = '';
  const filter = (text: string) => {
    const kept = text
      .split(/(```)/)
      .map((piece) => {
        if (piece === '```') {
          inCode = !inCode;
          return piece;
        }
        return inCode ? piece : keepKnownCitations(before + piece, count).slice(before.length);
      })
      .join('');
    before = kept.slice(-1) || before;
    return kept;
  };
  try {
    for await (const part of parts) {
      if (part.type !== 'text-delta') {
        if (held) yield { type: 'text-delta', delta: filter(held) };
        held = '';
        yield part;
        continue;
      }
      const text = held + part.delta;
      const cut = unfinished.exec(text)?.index ?? text.length;
      held = text.slice(cut);
      const ready = filter(text.slice(0, cut));
      if (ready) yield { type: 'text-delta', delta: ready };
    }
  } catch (error) {
    // The model failed mid-answer: what it wrote so far still goes out before the error.
    if (held) yield { type: 'text-delta', delta: filter(held) };
    throw error;
  }
  if (held) yield { type: 'text-delta', delta: filter(held) };
}
