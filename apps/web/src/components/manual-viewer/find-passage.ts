/** Characters `start` to `end` of the text piece `item` (a text-layer run, or a whole document). */
export type PassageRange = { item: number; start: number; end: number };

// Left out on both sides before comparing: a PDF's text layer splits, joins and hyphenates
// lines its own way ("compres-\nsor", "E 7"), so only letters, digits and punctuation count.
const IGNORED = /[\s\u00ad\u2010-\u2015-]/u;
const SAME_AS: Record<string, string> = { '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"' };
// A passage shorter than this, once compared, is too common to point at one place.
const MIN_FRAGMENT = 12;

/** Each character of `pieces` that counts, lower-cased, with where it came from. */
function comparable(pieces: string[]): { text: string; from: { item: number; offset: number }[] } {
  let text = '';
  const from: { item: number; offset: number }[] = [];
  pieces.forEach((piece, item) => {
    for (let offset = 0; offset < piece.length; offset++) {
      // NFKC spells ligatures out (ﬁ -> fi), so one character may give several.
      for (const char of piece[offset]!.normalize('NFKC').toLowerCase()) {
        if (IGNORED.test(char)) continue;
        text += SAME_AS[char] ?? char;
        from.push({ item, offset });
      }
    }
  });
  return { text, from };
}

/**
 * Where `quote` is in the text split into `pieces`: ranges in order, one per piece touched.
 * Tolerant of spacing, line breaks, hyphenation and case. When the quote as a whole is not
 * there (shortened with an ellipsis, or running onto the next page), each of its sentences
 * that is there is found instead. An empty list means it is not there at all.
 */
export function findPassage(pieces: string[], quote: string): PassageRange[] {
  const haystack = comparable(pieces);
  const whole = comparable([quote]).text;
  if (whole.length === 0) return [];
  const fragments = haystack.text.includes(whole)
    ? [whole]
    : quote
        .split(/(?<=[.!?;:])\s+|\u2026|\.{3,}|\n+/)
        .map((sentence) => comparable([sentence]).text)
        .filter((text) => text.length >= MIN_FRAGMENT);
  const ranges: PassageRange[] = [];
  for (const fragment of fragments) {
    const at = haystack.text.indexOf(fragment);
    if (at === -1) continue;
    // Spaces skipped within a piece stay inside its range: one mark per piece and fragment.
    let current: PassageRange | undefined;
    for (const { item, offset } of haystack.from.slice(at, at + fragment.length)) {
      if (current?.item === item) current.end = offset + 1;
      else ranges.push((current = { item, start: offset, end: offset + 1 }));
    }
  }
  ranges.sort((a, b) => a.item - b.item || a.start - b.start);
  // Two sentences may touch one piece: overlapping ranges become one.
  return ranges.reduce<PassageRange[]>((merged, range) => {
    const last = merged.at(-1);
    if (last?.item === range.item && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
    return merged;
  }, []);
}
