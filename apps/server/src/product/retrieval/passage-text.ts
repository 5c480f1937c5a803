// Reading a manual passage the way a technician skims it: its paragraphs as sentences, its
// numbered steps, its commands, and which of them carry the words of the question.
import { spellOutTemperatures } from './search-terms.js';

export type Block =
  | { kind: 'prose'; sentences: string[] }
  | { kind: 'step'; number: number; text: string }
  | { kind: 'code'; text: string };

const fence = /^\s*```/;
const stepLine = /^\s*(?:step\s+)?(\d{1,2})\s*[.):]\s+(\S.*)$/i;
const bulletLine = /^\s*[•●▪◦‣○■□–*-]\s+(\S.*)$/;
const endsSentence = /[.!?:]["'’”)]*$/;
// "e.g. the", "p. 56", "Fig. 3", "No. 4", "ATxmega. . . A1": a full stop that does not end the sentence.
const abbreviation =
  /(?:\b(?:e\.g|i\.e|etc|approx|no|nos|p|pp|fig|figs|vs|cf|min|max|ref|sec|ch|chapt|vol|art|pt|ca)|\b\p{Lu}|\.\s?\.\s?)\.$/iu;

/** How many more brackets the text opens than it closes. */
export const unclosedBrackets = (text: string) => (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;

/** Splits prose into sentences at a full stop, question or exclamation mark followed by a space. */
export function splitSentences(text: string): string[] {
  const pieces = text.split(/(?<=[.!?]["'’”)]*)\s+(?=["'‘“(]?[\p{Lu}\p{N}])/u);
  const sentences: string[] = [];
  for (const piece of pieces) {
    const previous = sentences.at(-1);
    if (previous !== undefined && abbreviation.test(previous)) sentences[sentences.length - 1] = `${previous} ${piece}`;
    else if (piece.trim()) sentences.push(piece.trim());
  }
  return sentences;
}

/**
 * A command printed in the body font rather than a monospaced one ("make 2>&1 | tee make.log",
 * "./configure --prefix=/opt"): a short line, no full stop, starting with a lower-case word and
 * holding a pipe, a redirection, a ./ path or an option.
 */
function looksLikeCommand(line: string): boolean {
  const words = line.split(/\s+/);
  // A wrapped line of prose ("using the -B option before the") starts with an English word.
  if (
    line.length > 80 ||
    words.length > 8 ||
    endsSentence.test(line) ||
    stopWords.has(words[0]!) ||
    proseStarts.has(words[0]!)
  )
    return false;
  return (
    /^(?:\$ |\.\/|[a-z][\w.+-]*\s)/.test(line) &&
    /\s\|\s|\d?>&?\d?\s*\S|(?:^|\s)\.\/|\s--?[a-z][\w-]*(?:[=\s]|$)/i.test(line)
  );
}
const proseStarts = new Set(
  'see using set sets enable enables disable disables note also only must may might will would should can cannot default defaults option options'.split(
    ' ',
  ),
);

// A page's running header or footer: "Chapter 2: Command Line Options 13", "gnuplot 5.4 31".
const runningHead = /^(?:\d{1,4}\s+\S.{0,80}|.{0,80}\S\s+\d{1,4}|.{0,60}\bCHAPTER\s+\d.{0,60})$/;
// A page number alone on the page's first or last line.
const pageNumber = /^\s*\d{1,4}\s*$/;

// A footnote as extraction prints it: its number run into its first word ("6This is a slightly more stringent
// rule ..."), or its asterisks in brackets ("(**) Flash addressing above 128 KB is not supported ...").
const footnote = /^(?:\d{1,2}\p{Lu}\p{Ll}|\(\*+\)\s)/u;

/**
 * The lines outside footnotes, which are asides to the text they are marked in (often a table's, on
 * the page before) and must never lead an answer. A footnote runs from its marker to the next blank
 * line ("(****) The ISP programming protocol ..." and the "Known to work are ..." line under it).
 */
function withoutFootnotes(lines: string[]): string[] {
  let inCode = false;
  let inFootnote = false;
  return lines.filter((line) => {
    if (fence.test(line)) inCode = !inCode;
    if (!line.trim()) inFootnote = false;
    else if (!inCode && footnote.test(line.trim())) inFootnote = true;
    return !inFootnote;
  });
}

/**
 * A passage as blocks: prose (wrapped lines joined again where they were wrapped), numbered
 * steps, and code fenced by the extractor. A passage cut in the middle of a fence keeps the
 * code it has. A running header on its first line and the footnotes are left out.
 */
export function parseBlocks(text: string): Block[] {
  const lines = withoutFootnotes(text.split('\n'));
  if (runningHead.test(lines[0]?.trim() ?? '') && !endsSentence.test(lines[0]!.trim())) lines.shift();
  if (pageNumber.test(lines[0] ?? '')) lines.shift();
  while (lines.length > 0 && !lines.at(-1)!.trim()) lines.pop();
  if (pageNumber.test(lines.at(-1) ?? '')) lines.pop();
  const longest = Math.max(...lines.map((l) => l.trim().length));
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  // The bulleted item last read, which a line after it may go on.
  let bullet: { at: number; text: string } | undefined;
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'prose', sentences: splitSentences(paragraph.join(' ')) });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence.test(line)) {
      endParagraph();
      const code: string[] = [];
      while (++i < lines.length && !fence.test(lines[i]!)) code.push(lines[i]!);
      while (code.length > 0 && !code.at(-1)!.trim()) code.pop();
      while (code.length > 0 && !code[0]!.trim()) code.shift();
      if (code.length === 0) continue;
      // Sentences set in a typewriter font (a note, a quotation) are prose, not something to type.
      const sentences = code.filter((l) => l.trim().split(/\s+/).length >= 8 && endsSentence.test(l.trim()));
      if (sentences.length * 2 > code.length)
        blocks.push({ kind: 'prose', sentences: code.flatMap((l) => splitSentences(l.trim())) });
      else if (blocks.at(-1)?.kind === 'code' && paragraph.length === 0) {
        // The extractor fences a listing in pieces where it has blank lines: one listing again.
        (blocks.at(-1) as { text: string }).text += `\n\n${code.join('\n')}`;
      } else blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const trimmed = line.trim();
    if (!trimmed) {
      endParagraph();
      continue;
    }
    const step = stepLine.exec(trimmed);
    if (step) {
      endParagraph();
      blocks.push({ kind: 'step', number: Number(step[1]), text: step[2]! });
      continue;
    }
    if (looksLikeCommand(trimmed)) {
      endParagraph();
      const last = blocks.at(-1);
      if (last?.kind === 'code') last.text += `\n${trimmed}`;
      else blocks.push({ kind: 'code', text: trimmed });
      continue;
    }
    const item = bulletLine.exec(trimmed);
    const last = blocks.at(-1);
    if (item) {
      endParagraph();
      blocks.push({ kind: 'prose', sentences: splitSentences(item[1]!) });
      bullet = { at: blocks.length - 1, text: item[1]! };
    } else if (
      bullet?.at === blocks.length - 1 &&
      paragraph.length === 0 &&
      lines[i - 1]?.trim() &&
      /^\p{Ll}/u.test(trimmed)
    ) {
      // The item goes on on the next line ("... (see f.e. cc2510fx.h http://svn." "code.sf.net/p/sdcc/...").
      bullet.text += ` ${trimmed}`;
      blocks[bullet.at] = { kind: 'prose', sentences: splitSentences(bullet.text) };
      continue;
    } else if (paragraph.length === 0 && last?.kind === 'step' && !endsSentence.test(last.text)) {
      last.text += ` ${trimmed}`; // the step's text goes on on the next line
    } else {
      paragraph.push(trimmed);
      // A line well short of the longest one ended its paragraph (or is a heading), unless a bracket
      // the paragraph opened closes on the next line ("(.control ..." above ".endc), you should not ...").
      const bracketOpen = unclosedBrackets(paragraph.join(' ')) > 0;
      if ((trimmed.length < longest * 0.7 || longest < 60 || trimmed.endsWith(':')) && !bracketOpen) endParagraph();
    }
  }
  endParagraph();
  // A passage cut from the middle of a page may begin in the middle of a sentence: that piece goes.
  // Not so the first entry of a list whose entries all start in lower case ("m immediate mode; ...",
  // "a auto detect; ..."): a paragraph after it starts in lower case too.
  const first = blocks[0];
  const lowerStart = (b: Block | undefined) => b?.kind === 'prose' && /^\p{Ll}/u.test(b.sentences[0] ?? '');
  if (lowerStart(first) && !blocks.slice(1, 3).some(lowerStart)) (first as { sentences: string[] }).sentences.shift();
  return blocks;
}

const stopWords = new Set(
  'a an and are about after again all also am any be been before being but by can could did do does doing done for from get gets got had has have how i if in into is it its just me mean means my need needs of off on once one only or our out over should so some than that the their them then there these they this those through to too under up use using very was we were what when where which while who whom why will with would you your yours please tell show explain happen happens work works way thing'.split(
    ' ',
  ),
);

export interface Terms {
  words: string[];
  /** Identifiers: part numbers, error codes, values with a unit, names with digits or punctuation. */
  codes: string[];
  /** Two words asked one after the other, as a manual may write them in one ("bit clock": "bitclock"). */
  pairs?: [string, string][];
  /** Whether an identifier also matches its family's members ("avr32dd": avr32dd20, "pic18": pic18f452). */
  families?: boolean;
  /** Parameter names that also stand for a word: [word, name] ("stop", "tstop"), as the search found them (retrieve.ts). */
  names?: [string, string][];
}

// An option as typed ("what does -e wipe", "--stack-auto"): an identifier, dash and case included ("-e" is not "-E").
const option = /(?<!\S)--?\p{L}[\p{L}\p{N}-]*/gu;

/**
 * The question's search terms: its meaningful words and the identifiers it names, a temperature
 * typed with a unit symbol read as the search reads it ("85 degC" as "85 degrees celsius").
 */
export function questionTerms(typed: string): Terms {
  const question = spellOutTemperatures(typed);
  const options = [...new Set(question.match(option))];
  const tokens = question
    .toLowerCase()
    .split(/[^\p{L}\p{N}._/-]+/u)
    .map((t) => t.replace(/^[._/-]+|[._/-]+$/g, ''))
    .filter(Boolean);
  const unique = [...new Set(tokens)];
  const isCode = (t: string) =>
    /\d/.test(t) || /[._/]/.test(t) || (t.includes('-') && t.length > 2 && !/^\p{L}+-\p{L}+$/u.test(t));
  const isWord = (t: string) => !isCode(t) && t.length >= 3 && !stopWords.has(t);
  return {
    // An option's name without its dash ("mpic14" of "-mpic14") is the option, counted once.
    codes: [
      ...options,
      ...unique.filter((t) => isCode(t) && !options.some((o) => o.replace(/^-+/, '').toLowerCase() === t)),
    ],
    // Words joined by a slash ("prologue/epilogue") are also each a word: a manual may write them apart.
    words: [
      ...new Set([
        ...unique.filter(isWord),
        ...unique.flatMap((t) => (/^\p{L}+(?:\/\p{L}+)+$/u.test(t) ? t.split('/').filter(isWord) : [])),
      ]),
    ],
    pairs: tokens
      .slice(1)
      .flatMap((t, i): [string, string][] => (isWord(t) && isWord(tokens[i]!) ? [[tokens[i]!, t]] : [])),
  };
}

/** Two words match when they share a stem: a common start of all but their last letters. */
function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  // Compared in place: called for every word of every candidate against each of the question's.
  const stem = Math.max(4, shorter - 2);
  for (let i = 0; i < stem; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  return true;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

/** The words of a text, lower-cased, for matching against the question's. */
export const wordsOf = (text: string) => text.toLowerCase().split(WORD_SEPARATORS);

/** Whether the text carries the question's word (any form sharing its stem). */
export const hasWord = (text: string, word: string) => wordsOf(text).some((w) => sameStem(w, word));

/**
 * An identifier of the question standing whole in a text: not inside a longer word or number, and
 * an option ("-e") not inside a longer option ("-eeprom"). Options are matched as typed, the rest
 * in lower case.
 */
const codePattern = (code: string, flags = '') =>
  new RegExp(
    `(?<![\\p{L}\\p{N}${code.startsWith('-') ? '-' : ''}])${escapeRegExp(code)}(?![\\p{L}\\p{N}])`,
    `u${flags}`,
  );

/** An identifier that may name a part family: letters and digits, 4 characters or more ("pic18", "avr32dd"). */
export const namesFamily = /^(?=.*\p{L})(?=.*\d)[\p{L}\d]{4,}$/u;

/**
 * A part family's members in a text: identifiers that begin with the question's where a letter meets
 * a digit ("avr32dd" in avr32dd20, "pic18" in pic18f452); not a number going on in digits, nor a code
 * of 3 characters or fewer (the rule the search holds families by, retrieve.ts findFamilies).
 */
const familyPattern = (code: string) =>
  namesFamily.test(code)
    ? new RegExp(`(?<![\\p{L}\\p{N}])${code}${/\d$/.test(code) ? '\\p{L}' : '\\d'}`, 'u')
    : undefined;

/**
 * How many times a term of the question occurs in a text: an identifier as typed (termScore), a
 * word in any of its forms (sameStem), a word of several parts ("flip-flop") as a phrase. `words`:
 * the text's words (wordsOf), when already split.
 */
export function termCount(text: string, term: { typed: string; isCode: boolean }, words = wordsOf(text)): number {
  const parts = wordsOf(term.typed).filter(Boolean);
  if (!term.isCode && parts.length === 1) return words.filter((w) => sameStem(w, parts[0]!)).length;
  // An option is matched as typed ("-B" is not "-b"), the rest in lower case, as termScore does.
  const typed = term.typed.startsWith('-');
  const code = typed ? term.typed : term.typed.toLowerCase();
  return (typed ? text : text.toLowerCase()).match(codePattern(code, 'g'))?.length ?? 0;
}

/** Which of a question's words and pairs (by index) one word of a text matches; most words match none. */
interface WordMatch {
  words: number[];
  pairs: number[];
}
const NO_MATCH: WordMatch = { words: [], pairs: [] };

function matchOf(w: string, terms: Terms): WordMatch {
  let match = NO_MATCH;
  const found = () => (match === NO_MATCH ? (match = { words: [], pairs: [] }) : match);
  terms.words.forEach((word, i) => {
    // A parameter name may stand for the word ("tstop" for "stop").
    if (sameStem(w, word) || terms.names?.some(([of, name]) => of === word && sameStem(w, name))) found().words.push(i);
  });
  terms.pairs?.forEach(([a, b], i) => {
    if (w.length >= a.length + b.length - 1 && sameStem(w, a + b)) found().pairs.push(i);
  });
  return match;
}

/**
 * Each word's matches, kept per Terms object (never changed once made): termScore is called for every
 * sentence of every candidate with the same terms (bestSentenceShare), and comparing each of its words
 * with each of the question's again was most of a question's work outside the database.
 */
const wordMatches = new WeakMap<Terms, Map<string, WordMatch>>();

/**
 * How well a piece of text answers: each distinct word of the question counts 1 (or its
 * `weights` entry), a number 2, an identifier 3.
 */
export function termScore(text: string, terms: Terms, weights?: Map<string, number>): number {
  const lower = text.toLowerCase();
  let score = 0;
  // The words of a slash pair found as typed ("prologue/epilogue") are counted in it, not again.
  const counted = new Set<string>();
  for (const code of terms.codes) {
    const found =
      codePattern(code).test(code.startsWith('-') ? text : lower) ||
      (terms.families === true && familyPattern(code)?.test(lower) === true);
    // A bare number ("the 4 second one") says less than a part number or an error code.
    if (!found) continue;
    score += /^\d+$/.test(code) ? 2 : 3;
    code.split('/').forEach((part) => counted.add(part));
  }
  // Kept from the second text scored with these terms on (many are made for one text alone).
  const matches = wordMatches.get(terms);
  if (!matches) wordMatches.set(terms, new Map());
  // The question's words the text holds in any form, and its pairs it writes as one word.
  const held = new Set<number>();
  const joinedPairs = new Set<number>();
  for (const w of lower.split(WORD_SEPARATORS)) {
    let match = matches?.get(w);
    if (!match) {
      match = matchOf(w, terms);
      matches?.set(w, match);
    }
    if (match === NO_MATCH) continue;
    for (const i of match.words) held.add(i);
    for (const i of match.pairs) joinedPairs.add(i);
  }
  const joined = (terms.pairs ?? []).filter((_, i) => joinedPairs.has(i)).flat();
  terms.words.forEach((word, i) => {
    if (!counted.has(word) && (joined.includes(word) || held.has(i))) score += weights?.get(word) ?? 1;
  });
  return score;
}
