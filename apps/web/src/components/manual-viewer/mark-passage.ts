import { findPassage } from './find-passage';

/**
 * Wraps the text of `quote` in the page's text layer in <mark> elements (one per text run it
 * touches) and answers them in reading order; none when the quote is not on the page.
 */
export function markPassage(runs: HTMLElement[], texts: string[], quote: string): HTMLElement[] {
  const marks: HTMLElement[] = [];
  const ranges = findPassage(texts, quote);
  for (const item of new Set(ranges.map((range) => range.item))) {
    const run = runs[item];
    const text = texts[item];
    if (!run || text === undefined) continue;
    const pieces: Node[] = [];
    let at = 0;
    for (const { start, end } of ranges.filter((range) => range.item === item)) {
      const mark = document.createElement('mark');
      mark.textContent = text.slice(start, end);
      pieces.push(document.createTextNode(text.slice(at, start)), mark);
      marks.push(mark);
      at = end;
    }
    pieces.push(document.createTextNode(text.slice(at)));
    run.replaceChildren(...pieces);
    run.classList.add('passage');
  }
  return marks;
}
