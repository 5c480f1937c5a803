import { type PageText, splitPage, type TextChunk } from './chunk.js';
import { aloneInFences, entryHead, isFence, OPTION } from './option-entry.js';

export interface SectionChunk extends TextChunk {
  /** The heading of the section the chunk belongs to ('' before the first heading). */
  heading: string;
}

const smallWords = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'by',
  'for',
  'from',
  'in',
  'into',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'vs',
  'via',
]);

/** A numbered section heading: "3.2 Replacing the fan", "8.2 BJT Models (NPN/PNP)". */
export const NUMBERED_HEADING = /^\d+(?:\.\d+)+\.?\s+\p{Lu}/u;

/** A subsection's title ending in a full stop or colon: its number has no dot of its own ("2.8.4 What ... does."). */
const SUBSECTION_ENDING_IN_STOP = /^\d{1,3}(?:\.\d{1,3})+\s+\p{Lu}\p{L}.*[^.][.:]$/u;

/** A line of a table of contents: a dot leader and a page ("2.2 Programmers . . . . 19", "Appendix B Troubleshooting . . 52"). */
const CONTENTS_ENTRY = /(?:\.\s*){2,}\d{1,4}$/;

/**
 * Whether a line reads as a section heading: numbered ("3.2 Replacing the fan", "Chapter 4"),
 * in capitals, or a short Title Case line without closing punctuation. Numbered steps
 * ("1. Remove the cover.") are sentences, so they are not headings.
 */
export function isHeading(line: string): boolean {
  const text = line.trim();
  // A numbered one may end in brackets ("8.2 BJT Models (NPN/PNP)"), and a subsection's in a full
  // stop or colon ("2.8.4 What the make install command does.", "20.5.1.1 Invocation:").
  const numbered = NUMBERED_HEADING.test(text);
  const closes = /[.,;:!?]$/.test(text) && !SUBSECTION_ENDING_IN_STOP.test(text);
  if (text.length < 3 || text.length > 90 || closes || (!numbered && text.endsWith(')')) || !/\p{L}{2}/u.test(text))
    return false;
  // A contents entry names a section and its page; the section itself is elsewhere.
  if (CONTENTS_ENTRY.test(text)) return false;
  if (/^(chapter|section|part|appendix)\s+[\dA-Z]+\b/i.test(text)) return true;
  if (numbered) return true;
  if (/^\d{1,2}\s+\p{Lu}\p{Ll}{3,}$/u.test(text)) return true; // a chapter of one word: "1 Introduction"
  const words = text.split(/\s+/);
  if (words.length > 10) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 4 && letters === letters.toUpperCase()) return true;
  if (words.length === 1) return /^\p{Lu}\p{Ll}{3,}$/u.test(text); // "Troubleshooting", "Maintenance"
  const content = words.filter((w) => /^\p{L}/u.test(w) && !smallWords.has(w.toLowerCase()));
  const capitalised = content.filter((w) => /^\p{Lu}/u.test(w));
  return content.length >= 2 && capitalised.length === content.length && /^[\p{Lu}\d]/u.test(text);
}

/** A chunk shorter than this takes in the next section too. */
const MIN_CHUNK = 200;

interface Section {
  heading: string;
  text: string;
  /** Whether the section goes on from the page before (it was not opened by a heading line on this page). */
  continues?: boolean;
}

/**
 * A numbered heading with its parent's before it ("8.2 BJT Models (NPN/PNP) › 8.2.1 Gummel-Poon
 * Models"), the parent met on an earlier page too: a subsection's own title often lacks the words
 * a question names it by.
 */
function sectionPaths(): (heading: string) => string {
  const titles = new Map<string, string>();
  return (heading) => {
    const number = /^(\d+(?:\.\d+)+)\.?\s/.exec(heading)?.[1];
    if (!number) return heading;
    titles.set(number, heading);
    const parent = titles.get(number.slice(0, number.lastIndexOf('.')));
    return parent ? `${parent} › ${heading}` : heading;
  };
}

/** A number at either end of a line: "302 CHAPTER 15. ANALYSES", "Chapter 2: Command Line Options 16". */
const END_NUMBERS = [/^(\d{1,4})\s+\S/, /\S\s+(\d{1,4})$/];

const firstLine = (text: string) =>
  text
    .split('\n')
    .find((l) => l.trim())
    ?.trim() ?? '';

/**
 * How far the printed page numbers lag the pages (0 when page 12 prints "12", 4 when it prints
 * "8"), read from the numbers at either end of the pages' first lines: the lag most of them share,
 * when at least 3 pages share it; otherwise undefined.
 */
function printedNumberLag(pages: PageText[]): number | undefined {
  const lags = new Map<number, number>();
  for (const { page, text } of pages) {
    const line = firstLine(text);
    for (const lag of new Set(
      END_NUMBERS.map((p) => p.exec(line)?.[1])
        .filter(Boolean)
        .map((n) => page - Number(n)),
    ))
      lags.set(lag, (lags.get(lag) ?? 0) + 1);
  }
  const [lag, count] = [...lags].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  return count >= 3 ? lag : undefined;
}

/**
 * Whether a page's first line is its running head: it carries the page's printed number at one
 * end ("15.5. SAFE OPERATING AREA (SOA) WARNING MESSAGES 323"). A running head names the section
 * the page ends in, or only the chapter, so it is no heading for the text beneath it.
 */
function isRunningHead(line: string, page: number, lag: number | undefined): boolean {
  return lag !== undefined && END_NUMBERS.some((p) => Number(p.exec(line.trim())?.[1]) === page - lag);
}

/**
 * A running head as LaTeX's book class sets it, in capitals, with the section's or chapter's number
 * and a dot ("2.9. COMPONENTS OF SDCC CHAPTER 2. INSTALLING SDCC"), where the printed number stands
 * at the foot of the page. Body headings are not set so ("2.9 Components of SDCC").
 */
const CAPITAL_HEAD = /^\d+(?:\.\d+)*\.\s+\p{Lu}|\bCHAPTER\s+\d+\.\s+\p{Lu}/u;
const isCapitalHead = (line: string) => CAPITAL_HEAD.test(line) && line === line.toUpperCase();

/**
 * The lines met on 3 pages or more: a table's header ("Name Parameter Units Default Example"), a
 * formula, a label. A section's title stands once, so these are no headings.
 */
function linesOnManyPages(pages: PageText[]): Set<string> {
  const pagesOf = new Map<string, number>();
  for (const { text } of pages)
    for (const line of new Set(text.split('\n').map((l) => l.trim())))
      if (line) pagesOf.set(line, (pagesOf.get(line) ?? 0) + 1);
  return new Set([...pagesOf].filter(([, count]) => count >= 3).map(([line]) => line));
}

/**
 * A page's text cut before each heading line; text before the first heading keeps `carried`. A
 * line of a listing (between ``` fences: "+ <RISE=# | RISE=LAST>", ".ENDS NAND") is no heading.
 */
function pageSections(
  text: string,
  carried: string,
  path: (heading: string) => string,
  runningHead: string,
  repeated: Set<string>,
): Section[] {
  const sections: Section[] = [{ heading: carried, text: '', continues: true }];
  let inListing = false;
  for (const line of text.split('\n')) {
    const fence = isFence(line);
    if (runningHead && line.trim() === runningHead) continue;
    if (!inListing && !fence && !repeated.has(line.trim()) && isHeading(line))
      sections.push({ heading: path(line.trim()), text: line });
    else sections[sections.length - 1]!.text += `${sections[sections.length - 1]!.text ? '\n' : ''}${line}`;
    if (fence) inListing = !inListing;
  }
  return sections.filter((s) => s.text.trim());
}

/** The head of the option entry a line opens ("-U memtype:op:filename[:format]"), or ''; a listing's lines open none. */
function entryHeadOf(lines: string[], at: number, inListing: boolean): string {
  if ((inListing && !aloneInFences(lines, at)) || CONTENTS_ENTRY.test(lines[at]!.trim())) return '';
  return entryHead(lines[at]!);
}

/**
 * The option entry open at each offset of a section's text: the last entry head that starts a line
 * before it, or `before` (the entry open where the section went on from the page before).
 */
function entryHeads(text: string, before: string): (offset: number) => string {
  const heads: { at: number; head: string }[] = [];
  const lines = text.split('\n');
  let at = 0;
  let inListing = false;
  lines.forEach((line, i) => {
    const fence = isFence(line);
    const head = fence ? '' : entryHeadOf(lines, i, inListing);
    if (head) heads.push({ at, head });
    if (fence) inListing = !inListing;
    at += line.length + 1;
  });
  return (offset) => heads.filter((h) => h.at < offset).at(-1)?.head ?? before;
}

/** The option entry's head at the end of a chunk's heading, as withEntry puts it there. */
const ENTRY_IN_HEADING = new RegExp(`(?:^| › )(${OPTION}[^›]*)$`);

/** A chunk's heading without the option entry it goes on with ("2.1 Option Descriptions › -U memtype:..."): its section's. */
export const sectionOf = (heading: string) => heading.replace(ENTRY_IN_HEADING, '');

/** The option entry's head a chunk's heading ends with ('' when it goes on with none). */
export const entryOf = (heading: string) => ENTRY_IN_HEADING.exec(heading)?.[1] ?? '';

/** Whether a chunk's text opens with an option entry's head (then it carries no other entry's). */
const opensEntry = (text: string) => {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim() && !isFence(l));
  return first !== -1 && entryHeadOf(lines, first, lines.slice(0, first).some(isFence)) !== '';
};

/** A chunk's heading with the option entry it goes on with: the section's, then the entry's head. */
const withEntry = (heading: string, entry: string, text: string) =>
  !entry || opensEntry(text) ? heading : heading ? `${heading} › ${entry}` : entry;

/**
 * Raise it when the reading of a file or its chunking changes what a manual's chunks hold: the
 * ingestion worker reads every manual made by an older version again (migrations/023).
 */
export const CHUNKING_VERSION = 3;

/**
 * Cuts a manual's pages into chunks along its sections: a chunk starts at a heading where one
 * falls, a fragment under 200 characters is joined to the next section, and a section up to 1.5 x `size`
 * (a procedure with its numbered steps) stays whole; longer ones are split at paragraph,
 * sentence or word boundaries with `overlap`. Each chunk carries its section's heading, from
 * an earlier page too; a chunk that goes on with an option's entry (begun in the chunk before or on
 * the page before) carries the entry's head after it ("2.1 Option Descriptions › -U
 * memtype:op:filename[:format]"), as the option it describes is named nowhere else in it. A chunk
 * never spans two pages, so every chunk can cite its page. A page's running head (its first line,
 * with the page's printed number or in LaTeX's capitals) is left out.
 */
export function chunkSections(pages: PageText[], { size = 1000, overlap = 150 } = {}): SectionChunk[] {
  const chunks: SectionChunk[] = [];
  let carried = '';
  const path = sectionPaths();
  const lag = printedNumberLag(pages);
  const repeated = linesOnManyPages(pages);
  // Pages that open so are a manual's running heads when 3 or more do.
  const capitalHeads = pages.filter((p) => isCapitalHead(firstLine(p.text))).length >= 3;
  const push = (page: number, heading: string, text: string, entry: string) => {
    const trimmed = text.trim();
    if (trimmed)
      chunks.push({ page, index: chunks.length, heading: withEntry(heading, entry, trimmed), text: trimmed });
  };
  // The option entry open where the text so far ends: a chunk that goes on with it carries its head.
  let entry = '';
  for (const { page, text } of pages) {
    let open: (Section & { entry: string }) | undefined;
    const head = firstLine(text);
    const running = isRunningHead(head, page, lag) || (capitalHeads && isCapitalHead(head));
    for (const section of pageSections(text, carried, path, running ? head : '', repeated)) {
      carried = section.heading;
      const entryAt = entryHeads(section.text, section.continues ? entry : '');
      entry = entryAt(section.text.length);
      // A fragment (the end of a section from the page before, a heading with a line) joins the next
      // section; a bare heading line ("15.3 Analyses") or its parent section's fragment takes the
      // next one's heading ("15.3 Analyses › 15.3.1 .AC: ..."), which names what the chunk holds.
      if (open && open.text.length < MIN_CHUNK && open.text.length + section.text.length + 1 <= size) {
        const bare = open.text.trim() === open.heading || section.heading.startsWith(`${open.heading} ›`);
        open = {
          heading: bare ? section.heading : open.heading,
          text: `${open.text}\n${section.text}`,
          entry: open.entry,
        };
        continue;
      }
      if (open) push(page, open.heading, open.text, open.entry);
      open = undefined;
      if (section.text.length <= size * 1.5) {
        open = { ...section, entry: entryAt(0) };
        continue;
      }
      for (const { start, end } of splitPage(section.text, size, overlap))
        push(page, section.heading, section.text.slice(start, end), entryAt(start));
    }
    if (open) push(page, open.heading, open.text, open.entry);
  }
  return chunks;
}
