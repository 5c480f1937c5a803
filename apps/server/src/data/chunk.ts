export interface PageText {
  page: number;
  text: string;
  /** The region of the page (PDF units: left, bottom, right, top) that holds a figure, a diagram or a ruled table (PDF pages only). */
  figure?: [number, number, number, number];
}

export interface TextChunk {
  page: number;
  /** Position of the chunk in the whole document, from 0. */
  index: number;
  text: string;
}

export interface ChunkOptions {
  /** Longest chunk, in characters. */
  size?: number;
  /** Characters a chunk repeats from the end of the one before it (same page only). */
  overlap?: number;
}

/** A chunk's place in its page's text: `text.slice(start, end)`. */
export interface ChunkRange {
  start: number;
  end: number;
}

// Where a chunk may end, best first: a paragraph, a line, a sentence, a word.
const breaks = [/\n\s*\n/g, /\n/g, /[.!?;:。](?=\s)/g, /\s/g];
const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/** The end of the last match of `pattern` that ends inside text[from, to], or -1. */
function lastBreak(text: string, from: number, to: number, pattern: RegExp): number {
  // One character past the window lets a lookahead see what follows `to`.
  const window = text.slice(from, to + 1);
  let found = -1;
  for (const match of window.matchAll(pattern)) {
    const end = from + match.index + match[0].length;
    if (end <= to) found = end;
  }
  return found;
}

function chunkEnd(text: string, start: number, size: number): number {
  const limit = start + size;
  if (limit >= text.length) return text.length;
  // A break is only taken if it keeps the chunk at least half full, so chunks stay useful.
  const earliest = start + Math.ceil(size / 2);
  for (const pattern of breaks) {
    const end = lastBreak(text, earliest, limit, pattern);
    if (end > start) return end;
  }
  return limit;
}

/** The next chunk starts `overlap` characters back, moved forward to the start of a word. */
function nextStart(text: string, start: number, end: number, overlap: number): number {
  let next = Math.max(end - overlap, start + 1);
  if (next < end && !isSpace(text[next - 1])) {
    const space = text.slice(next, end).search(/\s/);
    next = space === -1 ? next : next + space;
  }
  return next;
}

/**
 * Splits one page's text into ranges of at most `size` characters, each starting and ending
 * at a paragraph, sentence or word boundary where one falls in the second half of the window.
 * Consecutive ranges overlap by at most `overlap` characters; whitespace-only ranges are dropped.
 */
export function splitPage(text: string, size: number, overlap: number): ChunkRange[] {
  const ranges: ChunkRange[] = [];
  let start = 0;
  while (start < text.length && isSpace(text[start])) start++;
  while (start < text.length) {
    const end = chunkEnd(text, start, size);
    let trimmed = end;
    while (trimmed > start && isSpace(text[trimmed - 1])) trimmed--;
    if (trimmed > start) ranges.push({ start, end: trimmed });
    if (end >= text.length) break;
    start = nextStart(text, start, end, overlap);
    while (start < text.length && isSpace(text[start])) start++;
  }
  return ranges;
}

/**
 * Cuts a document's pages into chunks of about `size` characters for search and AI context.
 * A chunk never spans two pages, so every chunk can cite its page.
 * Throws a RangeError for a size under 1 or an overlap that is not below half the size.
 */
export function chunkText(pages: PageText[], { size = 1000, overlap = 150 }: ChunkOptions = {}): TextChunk[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('size must be a positive integer');
  if (!Number.isInteger(overlap) || overlap < 0 || overlap * 2 >= size)
    throw new RangeError('overlap must be at least 0 and less than half the size');
  const chunks: TextChunk[] = [];
  for (const { page, text } of pages) {
    for (const { start, end } of splitPage(text, size, overlap)) {
      chunks.push({ page, index: chunks.length, text: text.slice(start, end) });
    }
  }
  return chunks;
}
