import type { TextRun } from './pdf-layout.js';

/**
 * The advance of one glyph at this size: the narrowest width per character that two space-free
 * runs share (a code word set solid, or a single character), or undefined if none agree.
 */
function glyphAdvance(solid: TextRun[]): number | undefined {
  const perChar = solid.map((r) => r.width / r.str.length).sort((a, b) => a - b);
  return perChar.find((w, i) => perChar.some((v, j) => j !== i && Math.abs(v - w) <= w * 0.01));
}

/**
 * Monospaced runs of a spaced-out listing with the spaces pdf.js made up inside them, each mapped
 * to its text without them. LaTeX's `listings` sets each character in a fixed column a little
 * wider than its glyph and centres `.`, `(` or `=` in its own box; pdf.js reads those small gaps
 * as spaces and stores `. ac dec 10 1 K` for `.ac dec 10 1K`. A real space there is a whole empty
 * column, wide enough for pdf.js to end the run, so it stays as a run of its own. A listing is
 * known by its words being wider than their glyphs. A run set solid (one glyph advance per
 * character, spaces included) has real spaces and is left out, and so is every page without
 * such a listing (texinfo's inline code, whose spaces stretch with the line, included).
 */
export function listingRespacing(runs: TextRun[]): Map<TextRun, string> {
  const bySize = new Map<string, TextRun[]>();
  for (const run of runs) {
    if (!run.monospace || run.str.trim() === '') continue;
    const key = run.size.toFixed(1);
    bySize.set(key, [...(bySize.get(key) ?? []), run]);
  }
  const respaced = new Map<TextRun, string>();
  for (const group of bySize.values()) {
    const solid = group.filter((r) => !r.str.includes(' '));
    const advance = glyphAdvance(solid);
    if (advance === undefined) continue;
    const spreadOut = solid.filter((r) => r.str.length >= 2 && r.width / r.str.length > advance * 1.04);
    if (spreadOut.length < 2) continue;
    for (const run of group) {
      const setSolid = Math.abs(run.width - run.str.length * advance) <= advance * 0.02;
      if (run.str.includes(' ') && !setSolid) respaced.set(run, run.str.replace(/(?<=\S) +(?=\S)/g, ''));
    }
  }
  return respaced;
}
