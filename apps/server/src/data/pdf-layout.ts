import { listingRespacing } from './pdf-code-spacing.js';
import { cleanText } from './text-decode.js';

/** One piece of text pdf.js found on a page, where it sits (PDF units, y upwards) and in which font. */
export interface TextRun {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
  monospace: boolean;
  hasEOL: boolean;
}

interface Line {
  text: string;
  x: number;
  end: number;
  y: number;
  size: number;
  /** Every printed run is in a monospaced font: a command or a code listing. */
  code: boolean;
  charWidth: number;
}

// A list item's marker: "1.", "2)", "a)", "Step 3", a bullet or a dash.
const listMarker = /^(?:\d{1,2}[.)]|[a-z]\)|step \d+|[•●▪◦‣○■□–-])\s/i;

function lineOf(runs: TextRun[], respaced: Map<TextRun, string>): Line | undefined {
  const printed = runs.filter((r) => r.str.trim() !== '');
  const first = printed[0];
  const last = printed.at(-1);
  if (!first || !last) return undefined;
  const mono = printed.filter((r) => r.monospace);
  const code = mono.length === printed.length;
  // Only a listing's own lines: inline code in prose is set solid, and its spaces stretch with the line.
  const strings = runs.map((r) => (code && respaced.get(r)) || r.str);
  const monoChars = mono.reduce((n, r) => n + r.str.length, 0);
  return {
    text: cleanText(strings.join('')).trim(),
    x: first.x,
    end: last.x + last.width,
    y: first.y,
    size: Math.max(...printed.map((r) => r.size)),
    code,
    charWidth: monoChars > 0 ? mono.reduce((w, r) => w + r.width, 0) / monoChars : first.size / 2,
  };
}

/** Groups runs into printed lines: pdf.js marks most line ends; a jump in height marks the rest. */
function linesOf(runs: TextRun[]): Line[] {
  const respaced = listingRespacing(runs);
  const lines: Line[] = [];
  let current: TextRun[] = [];
  const flush = () => {
    const line = lineOf(current, respaced);
    if (line) lines.push(line);
    current = [];
  };
  for (const run of runs) {
    const anchor = current.find((r) => r.str.trim() !== '');
    if (anchor && run.str.trim() !== '' && Math.abs(run.y - anchor.y) > Math.max(run.size, anchor.size) * 0.6) flush();
    current.push(run);
    if (run.hasEOL) flush();
  }
  flush();
  return lines;
}

/** The usual distance between two lines of one paragraph: the median gap between neighbouring lines. */
function usualSpacing(lines: Line[]): number {
  const gaps = lines
    .slice(1)
    .map((line, i) => lines[i]!.y - line.y)
    .filter((gap) => gap > 0)
    .sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}

/**
 * Turns a page's text runs into text that keeps what a technician needs to read it: a
 * paragraph's wrapped lines joined into one line (so sentences flow), a blank line between
 * paragraphs, list items and table rows each on a line of their own, and lines set in a
 * monospaced font (commands, code) inside a ``` fence with their indentation kept.
 */
export function layoutText(runs: TextRun[]): string {
  const lines = linesOf(runs);
  if (lines.length === 0) return '';
  // A page set wholly in a monospaced font is a typewriter-style page, not a listing.
  const typewriter = lines.every((l) => l.code);
  if (typewriter) for (const line of lines) line.code = false;
  const prose = lines.filter((l) => !l.code);
  const left = Math.min(...prose.map((l) => l.x));
  const right = Math.max(...prose.map((l) => l.end));
  const spacing = usualSpacing(lines);

  const blocks: { code: boolean; lines: Line[] }[] = [];
  for (const [i, line] of lines.entries()) {
    const previous = lines[i - 1];
    const gap = previous ? previous.y - line.y : 0;
    const sameBlock =
      previous !== undefined &&
      gap > 0 &&
      gap <= Math.max(spacing * 1.3, line.size * 1.25) &&
      Math.abs(line.size - previous.size) <= line.size * 0.15 &&
      line.code === previous.code;
    if (sameBlock) blocks.at(-1)!.lines.push(line);
    else blocks.push({ code: line.code, lines: [line] });
  }

  const wraps = (previous: Line, line: Line) =>
    !typewriter &&
    right - left >= 200 &&
    previous.end >= right - (right - left) * 0.08 &&
    !/[.!?:]$/.test(previous.text) &&
    !listMarker.test(line.text);
  return blocks
    .map((block) => {
      if (block.code) {
        const margin = Math.min(...block.lines.map((l) => l.x));
        const body = block.lines
          .map((l) => ' '.repeat(Math.min(40, Math.round((l.x - margin) / l.charWidth))) + l.text)
          .join('\n');
        return `\`\`\`\n${body}\n\`\`\``;
      }
      let text = block.lines[0]!.text;
      for (let i = 1; i < block.lines.length; i++) {
        const previous = block.lines[i - 1]!;
        const line = block.lines[i]!;
        if (!wraps(previous, line)) text += `\n${line.text}`;
        // A word hyphenated across the line break is whole again ("speci-" "fied").
        else if (/\p{Ll}-$/u.test(previous.text) && /^\p{Ll}/u.test(line.text)) text = text.slice(0, -1) + line.text;
        else text += ` ${line.text}`;
      }
      return text;
    })
    .join('\n\n');
}
