import type { ChatSource } from '@fieldassist/client/chat-sources';
import { entryOf, NUMBERED_HEADING } from '../../data/chunk-sections.js';
import { DOT_COMMAND, OPTION, opensOptionEntry, runInEntryHead } from '../../data/option-entry.js';
import { isListing } from '../retrieval/rank.js';
import { type AskedValue, askedValue, givesValue } from './asked-value.js';
import type { Passage } from '../retrieval/retrieve.js';
import {
  type Block,
  hasWord,
  parseBlocks,
  questionTerms,
  type Terms,
  termScore,
  unclosedBrackets,
} from '../retrieval/passage-text.js';

export interface ComposedAnswer {
  /** Markdown. */
  text: string;
  /** The pages the text cites, each once, numbered as cited. */
  sources: ChatSource[];
}

export const LOCAL_ANSWER_NOTE = '_Composed from your manuals; no AI model wrote this answer._';
const DIRECT_ANSWER_CHARS = 420;
const FURTHER_CHARS = 180;
const OPTION_BONUS = 1.5;
const LEAD_MARGIN = 2;
const FURTHER_MARGIN = 1.5;
const MAX_STEPS = 8;
const STEP_CHARS = 240;
const MAX_CODE_BLOCKS = 2;
const CODE_LINES = 16;
const SHORT_LISTING = 6;
const WEAKER_LISTING = 1.5;
const HOLE_CHARS = 100;
const offersAlternatives =
  /\b(?:one of (?:two|three|several|the following)|(?:two|three|several) (?:ways|methods|forms)|either)\b/i;

// A compiler's reserved name ("__asm", "__endasm", "__at"): shown as code, as typed, not as "\_\_asm".
const reservedName = /(?<![\p{L}\p{N}_])(__[\p{L}\p{N}_]*[\p{L}\p{N}]_*)/u;

/**
 * Escapes what markdown would read as formatting, so a manual's text shows as printed, and
 * only that: "srec_cat" and "--stack-auto" stay as typed (GitHub markdown ignores an
 * underscore inside a word, and a dash starts a list only when a space follows); a reserved
 * name with leading underscores shows as code.
 */
export function escapeMarkdown(text: string): string {
  return text
    .split(reservedName)
    .map((piece, i) =>
      i % 2 === 1
        ? `\`${piece}\``
        : piece.replace(
            /[\\`*~[]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])|<(?=[\p{L}/!?])|\](?=[([])|&(?=#?[\p{L}\p{N}]+;)/gu,
            '\\$&',
          ),
    )
    .join('')
    .replace(/^(\s*)([-+]\s|#{1,6}(?:\s|$)|>|=+\s*$|-+\s*$|\d+[.)]\s)/, '$1\\$2');
}

/** The first of the items with the same text: a page may print a sentence or a listing twice (two programmers' entries). */
const oncePerText = <T extends { text: string }>(items: T[]) =>
  items.filter((item, i) => items.findIndex((other) => other.text.trim() === item.text.trim()) === i);

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:]+$/, '')}…`;
}

/** A fence longer than any run of backticks inside, so the code is shown exactly as printed. */
function fenced(code: string): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${code}\n${fence}`;
}

const label = (p: Pick<Passage, 'title' | 'page'>) => escapeMarkdown(`${p.title}${p.page ? `, page ${p.page}` : ''}`);

interface Scored {
  text: string;
  score: number;
  /** Position in the passage, to keep the chosen sentences in reading order. */
  order: number;
  /** Index of the block it comes from. */
  block: number;
  /** A row of a table, which holds values rather than a full sentence. */
  row?: boolean;
  /** The short listing above that the sentence explains ("This message occurs whenever ..."). */
  explains?: string;
}

// A name to type: "opt_code_size", "strict_errorhandling", "GMIN=x"; not a file's ("/examples/Monte_Carlo/MC_ring.sp").
const typedName =
  /(?<![\p{L}\p{N}/.\\])(?:--?)?\p{L}[\p{L}\p{N}]*(?:[_=-][\p{L}\p{N}]*)*[_=][\p{L}\p{N}_=-]*(?![\p{L}\p{N}]|[/.\\]\w)/gu;

/** Whether a sentence names something to type whose parts are words of the question. */
function namedByQuestion(text: string, terms: Terms): boolean {
  return (text.match(typedName) ?? []).some((name) => terms.words.some((word) => hasWord(name, word)));
}

// A numbered heading, also one that quotes an error or a command in lower case ("4.6.8.4 error: missing definition ...").
const sectionHeading = /^\d+(?:\.\d+)+\.?\s+\p{L}/u;
/** A block that opens a numbered section ("3.2.3 Projects with Multiple Source Files", "15.3.9 .TF: Transfer Function Analysis"). */
const opensSection = (b: Block | undefined) =>
  b?.kind === 'prose' && (sectionHeading.test(b.sentences[0] ?? '') || commandHeading.test(b.sentences[0] ?? ''));
/** How many numbered sections of the passage have opened by block `index`: the blocks of one section share it. */
const sectionAt = (blocks: Block[], index: number) => blocks.slice(0, index + 1).filter(opensSection).length;

/** What a block opens with: a listing's text, a paragraph's first sentence; '' for any other block. */
const headOf = (b: Block) => (b.kind === 'code' ? b.text.trim() : b.kind === 'prose' ? (b.sentences[0] ?? '') : '');

/**
 * The option of the entry each block belongs to in an option list, or '': the entry the passage goes on with
 * from the page before (`entry`, its heading's) until the passage opens one of its own, then the last one
 * opened, until a numbered section starts.
 */
function entryOptions(blocks: Block[], entry: string): string[] {
  let option = optionAtStart.exec(entry)?.[1] ?? '';
  return blocks.map((b) => {
    if (opensSection(b)) option = '';
    if (opensEntry(b)) option = optionAtStart.exec(headOf(b))?.[1] ?? '';
    return option;
  });
}

/**
 * The passage's sentences scored against the question. A word of the question found in few
 * of them says more about which one answers ("calibrate") than one found in most ("avrdude").
 * `entry`: the option entry the passage goes on with from the page or chunk before (its heading's).
 */
function sentencesOf(blocks: Block[], terms: Terms, entry = ''): Scored[] {
  const texts = blocks.flatMap((block, index) =>
    block.kind === 'prose' ? block.sentences.map((text) => ({ text, block: index })) : [],
  );
  // Inverse sentence frequency: a word in one sentence of thirty weighs about 3.4, one in all of them 0.7.
  const weights = new Map(
    terms.words.map((word) => {
      const found = texts.filter((t) => hasWord(t.text, word)).length;
      return [word, found === 0 ? 1 : Math.log(1 + texts.length / found)];
    }),
  );
  // A sentence that names an option to type ("... overridden with the -F option", "the model parameter
  // PCHAN") tells what to do, and so does one naming a name made of the question's words
  // ("opt_code_size" for "optimise for size").
  // The option the technician types already ("-o keeps failing") is nothing new to type.
  const withoutAsked = (text: string) =>
    terms.codes
      .filter((code) => code.startsWith('-'))
      .reduce(
        (rest, option) => rest.replace(new RegExp(`(?<![\\p{L}\\p{N}-])${option}(?![\\p{L}\\p{N}])`, 'gu'), ''),
        text,
      );
  const namesOption = new RegExp(
    String.raw`(?:^|[\s(“"‘'])(?:${OPTION}|\.option\s+\w+)|\b\w+=\S|\b(?:parameters?|variables?|flags?|keywords?|pragma)\s+(?:[A-Z][A-Z\d]+\b|\w+_\w)`,
  );
  // A table row is read with its column headers, the first row of its run ("System Default Serial Port"
  // above "Linux /dev/parport0 /dev/ttyS0").
  const headerOf = (index: number) => {
    let start = index;
    while (isRow(blocks[start]) && isRow(blocks[start - 1])) start--;
    const header = blocks[start];
    return start < index && header?.kind === 'prose' ? `${header.sentences.join(' ')} ` : '';
  };
  // The first sentence of a section, when it carries the question, is read with its numbered heading
  // ("6.1 Porting code from or to other compilers" above "check whether endianness of the compilers differs").
  const sectionOf = (t: (typeof texts)[number], order: number) => {
    const before = texts[order - 1];
    const opens = before && before.block === t.block - 1 && sectionHeading.test(before.text);
    return opens && termScore(t.text, terms) > 0 ? `${before.text} ` : '';
  };
  // The listing right above a paragraph's first sentence, which the sentence may describe.
  const listingAbove = (t: (typeof texts)[number], order: number) => {
    const above = blocks[t.block - 1];
    return texts[order - 1]?.block !== t.block && above?.kind === 'code' ? above.text : undefined;
  };
  // An option list's description is read with the option printed on the line above it ("-B bitclock" above
  // "Specify the bit clock period ..."): the option asked for tells which entry answers.
  // Not a sentence that introduces the listing under it ("Examples:" between ".tran tstep tstop" and its examples).
  const optionAbove = (t: (typeof texts)[number], order: number) => {
    const above = listingAbove(t, order);
    const introduces = /:\s*$/.test(t.text) && blocks[t.block + 1]?.kind === 'code';
    return above !== undefined && isOptionLine(above) && !introduces ? `${above.trim()} ` : '';
  };
  // A short listing is explained by the sentence under it that points back at it (an error message, then "This
  // message occurs whenever ... spaced too closely together"): that sentence is read with the listing.
  const explained = (t: (typeof texts)[number], order: number) => {
    const above = listingAbove(t, order);
    return above !== undefined && /^(?:this|these|it)\b/i.test(t.text) && above.split('\n').length <= SHORT_LISTING
      ? `${above} `
      : '';
  };
  // A question that types an option asks about that option's entry: on a page that holds it (or goes on with
  // it from the page before), a sentence of another option's entry ("More -v options make ..." under "-v" for
  // "which operations can the -U option do") shares only a word of the question.
  const options = entryOptions(blocks, entry);
  const asked = terms.codes.filter((code) => code.startsWith('-') && options.includes(code));
  const ofAnotherEntry = (t: (typeof texts)[number]) =>
    asked.length > 0 && options[t.block]!.startsWith('-') && !asked.includes(options[t.block]!);
  return texts.map((t, order) => {
    const explains = explained(t, order);
    let score = termScore(
      headerOf(t.block) + sectionOf(t, order) + optionAbove(t, order) + explains + t.text,
      terms,
      weights,
    );
    if (namesOption.test(withoutAsked(t.text)) || namedByQuestion(t.text, terms)) score *= OPTION_BONUS;
    if (ofAnotherEntry(t)) score = 0;
    // A sentence longer than the answer shows is cut, and its many words make it look better than it answers.
    if (t.text.length > DIRECT_ANSWER_CHARS) score /= 2;
    return {
      ...t,
      score,
      order,
      row: inTable(blocks, t.block),
      explains,
    };
  });
}

// "The default value is 1.0e-12.", "Default is off.", "The default is 100."
const statesDefault = /^(?:the\s+)?default(?:\s+value)?\s+(?:is|value)\b/i;

// "There is however a code model equivalent ...", "Use -F instead.": an alternative to what the sentence before rules out.
const turnsAround = /\b(?:however|instead)\b/i;

// "Issuing the save command will help to reduce memory", "This can be addressed by changing ...".
const tellsWhatHelps =
  /\b(?:(?:will|should|may|can|might) help|helps|to (?:reduce|avoid|prevent|fix|solve|work around|speed up)|can be (?:addressed|avoided|fixed|solved|reduced|prevented)|works? around)\b/i;

/**
 * How well each sentence of a page gives the value asked for (see givesValue), counting only a sentence that
 * carries the question, or follows one in its paragraph ("specwindow: ... windowing ... fft command. If not
 * set, the default is hanning."), in the best sentence's section: another section's number ("128 bytes of
 * internal RAM") is another topic's. The word "default" alone is no carrying: "ABSTOL=x ... The default
 * value is 1 pA." is another setting's.
 */
function valueGiven(asked: AskedValue, blocks: Block[], scored: Scored[], terms: Terms) {
  const subject = { ...terms, words: terms.words.filter((w) => !/^defaults?$/.test(w)) };
  const carries = (s: Scored | undefined) => s !== undefined && termScore(s.text, subject) > 0;
  return (s: Scored, top: Scored) => {
    const before = scored[s.order - 1];
    const near = carries(s) || (before?.block === s.block && carries(before));
    return near && sectionAt(blocks, s.block) === sectionAt(blocks, top.block)
      ? givesValue(s.text, asked, terms.codes)
      : 0;
  };
}

/**
 * The sentences that carry the question's terms, best first until `max` characters, put back
 * in reading order; an answer shorter than `enough` goes on with the sentences after it (a
 * "Fault F28: no ignition." line needs the check that follows it). A heading (no full stop)
 * only counts when nothing better is there. With `fillGaps` (the direct answer), a sentence between two
 * chosen ones of a paragraph comes along.
 */
function pickSentences(
  sentences: Scored[],
  max: number,
  enough = 0,
  value?: (s: Scored, top: Scored) => number,
  fillGaps = false,
): Scored[] {
  const weighed = sentences.map((s) => ({
    ...s,
    score: /[.!?:]["'’”)]*$/.test(s.text) || s.text.length > 80 || s.row ? s.score : s.score / 2,
  }));
  const best = Math.max(0, ...weighed.map((s) => s.score));
  // A question that asks for a value ("how big", "what baud") is answered by the sentence that gives one
  // ("... treated as 3-byte generic pointers"), which shares few of its words: of those `value` allows, the
  // best that gives a value is chosen as if it carried the most.
  const top = weighed.find((s) => s.score === best);
  // A sentence that follows one of the question in its paragraph ("If not set, the default is hanning.") is
  // weighed by it: "TNOM=x ... The default value is 27" is TNOM's default, not TEMP's before it.
  const carriedBefore = (s: Scored) => {
    const before = weighed[s.order - 1];
    return before?.block === s.block ? before.score : 0;
  };
  const giving =
    value &&
    top &&
    weighed
      .map((s) => ({ s, gives: value(s, top), near: Math.max(s.score, carriedBefore(s)) }))
      .filter(({ gives }) => gives > 0)
      .sort((a, b) => b.gives - a.gives || b.near - a.near)[0]?.s;
  if (giving) giving.score = best;
  // Of two sentences that carry as much of the question, the shorter says it more directly.
  const ranked =
    best > 0
      ? weighed.filter((s) => s.score >= best / 2).sort((a, b) => b.score - a.score || a.text.length - b.text.length)
      : weighed.slice(0, 2);
  const chosen: Scored[] = [];
  let length = 0;
  const take = (sentence: Scored) => {
    chosen.push(sentence);
    length += sentence.text.length;
    // An option's default value travels with it ("GMIN=x resets ... The default value is 1.0e-12.").
    const next = weighed[sentence.order + 1];
    if (next?.block === sentence.block && statesDefault.test(next.text) && !chosen.includes(next)) {
      chosen.push(next);
      length += next.text.length;
    }
  };
  // Three sentences of the question at most, each with what comes along with it, within `max`.
  let picked = 0;
  for (const sentence of ranked) {
    if (picked === 3 || (chosen.length > 0 && length + sentence.text.length > max)) break;
    if (chosen.includes(sentence)) continue;
    take(sentence);
    picked++;
    // The sentence after one of the first two in its paragraph: often the fix for the symptom it names, or the
    // way out of what it rules out ("... does not offer a direct E-Source with the LAPLACE option. There is however
    // a code model equivalent called s_xfer ..."), which shares no word with the question.
    const next = weighed[sentence.order + 1];
    if (
      picked <= 2 &&
      next?.block === sentence.block &&
      (next.score > 0 || turnsAround.test(next.text)) &&
      !chosen.includes(next) &&
      length + next.text.length <= max
    )
      take(next);
    // What helps against the symptom a sentence names may come a sentence or two later in its paragraph.
    const remedy = weighed
      .slice(sentence.order + 1, sentence.order + 4)
      .find((s) => s.block === sentence.block && s.score > 0 && tellsWhatHelps.test(s.text));
    if (picked <= 2 && remedy && !chosen.includes(remedy) && length + remedy.text.length <= max) take(remedy);
  }
  chosen.sort((a, b) => a.order - b.order);
  // A paragraph is read without a hole: the one sentence the page prints between two chosen sentences of one
  // paragraph comes along ("... then debugging is nearly impossible. However, if the variable ngdebug is set ...,
  // a more distinctive error message is issued ... Detailed error message ...:"), when it fits. Not before what
  // helps against a symptom, which was taken from further on in the paragraph for itself.
  if (fillGaps) {
    for (const [i, a] of chosen.slice(0, -1).entries()) {
      const hole = weighed[a.order + 1];
      const next = chosen[i + 1]!;
      if (
        hole &&
        next.order === a.order + 2 &&
        next.block === a.block &&
        !tellsWhatHelps.test(next.text) &&
        !chosen.includes(hole) &&
        length + hole.text.length <= max + HOLE_CHARS
      ) {
        chosen.push(hole);
        length += hole.text.length;
      }
    }
    chosen.sort((a, b) => a.order - b.order);
  }
  // The paragraph's short lead ("-D Disable auto erase for flash.", "Fault F28: no ignition.") or
  // the sentence a "This ..." or "It ..." points back to comes along.
  const first = chosen[0];
  const before = first && weighed[first.order - 1];
  const lead = first && weighed.find((s) => s.block === first.block);
  if (first && lead && lead !== first && lead.text.length < 50 && length + lead.text.length <= max + 50) take(lead);
  else if (
    before &&
    before.block === first.block &&
    /^(?:this|it|they|these|that|such|then|so)\b/i.test(first.text) &&
    length + before.text.length <= max + 50
  )
    take(before);
  chosen.sort((a, b) => a.order - b.order);
  // A troubleshooting entry's "Problem:" matches the question; its "Solution:" is the answer,
  // with the sentences that finish it. The entry that matches best is the answer alone. A
  // sentence inside a solution ("As that slows down ...") brings its solution's start along.
  const isProblem = (s: Scored | undefined) => s !== undefined && /^(?:problem|symptom|question|cause)\b/i.test(s.text);
  const isSolution = (s: Scored | undefined) =>
    s !== undefined && /^(?:solution|remedy|fix|workaround|answer|action)\b/i.test(s.text);
  const troubleshootingEntryOf = (s: Scored) => {
    for (let back = 0; back <= 3; back++) {
      const before = weighed[s.order - back];
      if (!before) return undefined;
      if (isSolution(before)) {
        // The solution's own problem is the one printed above it, before any other solution.
        for (let k = before.order - 1; k >= Math.max(0, before.order - 5); k--) {
          if (isSolution(weighed[k])) break;
          if (isProblem(weighed[k])) return { problem: weighed[k], solution: before };
        }
        return { problem: undefined, solution: before };
      }
      if (isProblem(before)) {
        const solution = weighed.slice(before.order + 1, before.order + 6).find(isSolution);
        return solution && { problem: before, solution };
      }
    }
    return undefined;
  };
  const byScore = [...chosen].sort((a, b) => b.score - a.score);
  const matched = byScore.find((s) => troubleshootingEntryOf(s)?.problem) ?? byScore.find(troubleshootingEntryOf);
  const entry = matched && troubleshootingEntryOf(matched)!;
  if (matched && entry && !chosen.includes(entry.solution)) {
    const { problem, solution } = entry;
    const asked = problem ? chosen.filter((s) => s.order >= problem.order && s.order < solution.order) : [];
    chosen.splice(0, chosen.length);
    length = 0;
    asked.forEach(take);
    take(solution);
    for (
      let next = weighed[solution.order + 1];
      next && length < max && !isProblem(next) && length + next.text.length <= max + 150;
      next = weighed[next.order + 1]
    )
      take(next);
    if (matched.order > solution.order && !chosen.includes(matched)) take(matched);
  }
  chosen.sort((a, b) => a.order - b.order);
  for (
    let next = weighed[(chosen.at(-1)?.order ?? Infinity) + 1];
    next &&
    next.block === chosen.at(-1)!.block &&
    length < enough &&
    chosen.length < 3 &&
    !chosen.at(-1)!.text.endsWith(':') &&
    length + next.text.length <= max;
    next = weighed[next.order + 1]
  ) {
    take(next);
  }
  // A page may print the same sentence twice (two programmers' entries): it is shown once.
  return oncePerText(chosen);
}

const MAX_ROWS = 12;
const introducesRows = /:\s*$|\b(?:following|below|table|list)\b/i;
const ROW_CHARS = 100;

const isRow = (block: Block | undefined): boolean =>
  block?.kind === 'prose' &&
  block.sentences.join(' ').length <= ROW_CHARS &&
  !/^(?:problem|solution|note)\b/i.test(block.sentences[0] ?? '') &&
  // A numbered section heading ("3.15.1 MCS51 Memory Models") is no row, however short.
  !NUMBERED_HEADING.test(block.sentences[0] ?? '') &&
  !commandHeading.test(block.sentences[0] ?? '') &&
  !block.sentences.join(' ').endsWith(':');

// Three short lines in a row at least: a heading and the short sentence under it are no table.
const inTable = (blocks: Block[], index: number) =>
  [-2, -1, 0].some((from) => [0, 1, 2].every((i) => isRow(blocks[index + from + i])));

/**
 * The rows of a table or list the answer falls in ("3 Timer 1 0x001b" among the interrupt
 * vectors), or that follow an answer ending in a colon ("Use the following pin mapping:"):
 * shown one per line, and taken out of the direct answer.
 */
function rowsOf(
  blocks: Block[],
  chosen: Scored[],
  terms: Terms,
): { rows: string[]; direct: Scored[]; shows: (block: number) => boolean } {
  const inRun = (s: Scored) => inTable(blocks, s.block);
  const best = [...chosen].sort((a, b) => b.score - a.score).find(inRun);
  let start = -1;
  let end = -1;
  if (best) {
    start = best.block;
    end = best.block;
    while (isRow(blocks[start - 1]) && best.block - start < MAX_ROWS / 2) start--;
    while (isRow(blocks[end + 1]) && end - start + 1 < MAX_ROWS) end++;
  } else if (chosen.at(-1)?.text.endsWith(':')) {
    start = chosen.at(-1)!.block + 1;
    end = start - 1;
    while (isRow(blocks[end + 1]) && end - start + 1 < MAX_ROWS) end++;
  }
  if (end < start) return { rows: [], direct: chosen, shows: () => false };
  // A cell wrapped onto the next line ("(Firmware v4.2+" above "only)") is one row again.
  const lines: string[] = [];
  for (const b of blocks.slice(start, end + 1)) {
    const line = (b as Extract<Block, { kind: 'prose' }>).sentences.join(' ');
    const previous = lines.at(-1);
    if (previous !== undefined && unclosedBrackets(previous) > 0 && unclosedBrackets(line) < 0)
      lines[lines.length - 1] = `${previous} ${line}`;
    else lines.push(line);
  }
  const rows = lines.map((line) => `- ${withOptionAsCode(line)}`);
  const shown = (block: number) => block >= start && block <= end;
  const direct = chosen.filter((s) => !shown(s.block));
  // Rows alone are introduced by the line before them: a caption or the columns' names, or a sentence
  // that introduces ("The following table lists...", "Possible values are:"), not any sentence that ends there.
  const before = blocks[start - 1];
  const intro = before?.kind === 'prose' ? before.sentences.at(-1)! : '';
  if (direct.length === 0 && intro && !isRow(before) && (!/[.!?]["'’”)]*$/.test(intro) || introducesRows.test(intro)))
    direct.push({ text: intro, score: 0, order: -1, block: start - 1 });
  // With no such line (the list goes on from the page before), the row that answers leads, so the answer does not
  // open with its page's label: the one that carries the most of the question by its own words ("hfuse The high
  // fuse byte."), not with the first row read as the columns' names; none when rows tie ("1 Timer 0" and "3 Timer 1"
  // for "timer 1": the list shows which).
  const own = (s: Scored) => termScore(s.text, terms);
  const [answering, runnerUp] = chosen.filter((s) => shown(s.block)).sort((a, b) => own(b) - own(a));
  if (direct.length === 0 && answering && own(answering) > 0 && !(runnerUp && own(runnerUp) === own(answering)))
    direct.push(answering);
  return { rows, direct, shows: shown };
}

/** Inline code that shows `text` exactly, whatever backticks it holds. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${/^`|`$/.test(text) ? ` ${text} ` : text}${fence}`;
}

// An option as printed at the head of its entry: "-F", "--acall-ajmp", "‘rawfreq=0..3’", "-c programmer-id",
// ".options reltol=0.001", "set ngbehavior=ltpsa".
// Its dot command in lower case only (".options"), not DOT_COMMAND: a netlist card's example in capitals
// (".GLOBAL gnd vcc", ".ENDS OPAMP") above the card's description would be shown as the description's name.
const optionAtStart = new RegExp(String.raw`^[‘'"]?(${OPTION}|\.[a-z]\w*|(?:[a-z]+ )?[A-Za-z][\w-]*=\S*)`);
// A name alone in quotes on its line ("‘showversion’"): how a texinfo manual prints an option list's entries.
const quotedName = /^[‘'][A-Za-z][\w-]*[’']$/;
const isOptionLine = (code: string) =>
  !code.includes('\n') && code.trim().length <= 60 && (optionAtStart.test(code.trim()) || quotedName.test(code.trim()));

// A command's synopsis, its arguments named rather than given: "vtarg voltage", "varef [channel] voltage",
// "dump memtype addr nbytes"; not a command line to type ("service restore --settings backup.cfg").
const isCommandEntry = (code: string) =>
  /^[a-z][\w-]*(?: (?:[a-z][\w.]*|\[[^\]\s]+\]|<[^>\s]+>)){0,3}$/.test(code.trim());

// A numbered section named by the command or reserved name it describes: "2.12 .TEMP", "15.6.4 .FOUR: Fourier
// Analysis of ...", "3.5.4.2 __sfr16" (its sentence, "The Padauk family has a 16-bit timer ...", does not repeat it).
const commandHeading = new RegExp(String.raw`^\d+(?:\.\d+)+\.?\s+(${DOT_COMMAND}|${OPTION}|__[A-Za-z]\w*)(?=:|\s|$)`);

// A command run into its description: "parms STK500 and STK600 only: Display ...", "fosc off Turn the ...".
const runInCommand = /^([a-z][\w-]*(?: [a-z][\w-]*){0,2}) (?=\p{Lu})/u;

/**
 * The command a paragraph of a command list opens with, run into its description, when commands printed
 * alone above their descriptions ("sck period") stand next to it: elsewhere a paragraph that opens in
 * lower case goes on with a sentence of the page or chunk before ("and F1 - F2. One of ...").
 */
function commandRunInto(blocks: Block[], index: number): string | undefined {
  const paragraph = blocks[index];
  const head = paragraph?.kind === 'prose' ? runInCommand.exec(paragraph.sentences[0]!)?.[1] : undefined;
  const inList = blocks
    .slice(Math.max(0, index - 6), index + 7)
    .some((b) => b.kind === 'code' && isCommandEntry(b.text));
  return head && inList ? head : undefined;
}

/**
 * The option a sentence describes when it does not name it: printed on the line before its
 * description (an option list), at the head of the sentence's paragraph ("--acall-ajmp
 * Replaces ... You may need to use this option ...", "GMINSTEPS=x sets ... If the value is zero ..."),
 * or in the heading of the section the sentence opens ("2.12 .TEMP" above "Sets the circuit temperature ...").
 */
function subjectOf(blocks: Block[], sentence: Scored): string | undefined {
  const paragraph = blocks[sentence.block];
  // A sentence that starts with an option is that option's own entry ("XMU=x sets the damping factor ...").
  if (paragraph?.kind !== 'prose' || optionAtStart.test(sentence.text)) return undefined;
  const place = paragraph.sentences.indexOf(sentence.text);
  if (place > 0) {
    const head = optionAtStart.exec(paragraph.sentences[0]!)?.[1] ?? commandRunInto(blocks, sentence.block);
    if (head && !sentence.text.includes(head)) return head;
  }
  const before = blocks[sentence.block - 1];
  const heading = place === 0 && before?.kind === 'prose' && before.sentences.length === 1 ? before.sentences[0]! : '';
  const command = commandHeading.exec(heading)?.[1];
  if (command) return sentence.text.toLowerCase().includes(command.toLowerCase()) ? undefined : command;
  // Every sentence of an option's description is about it, not only the first ("‘cpufreq=125..4000’" above
  // "This sets the AUX pin ... Connecting the AUX pin to the XTAL1 pin ..., you can provide it a clock").
  if (before?.kind !== 'code') return undefined;
  if (isOptionLine(before.text)) return before.text.trim();
  // So is a command's, printed with its arguments above it ("vtarg voltage" above "Set the target's supply
  // voltage ..."), unless the sentence names the command itself ("ngspice will start, load spinit ...").
  const entry = before.text.trim();
  return isCommandEntry(entry) && !hasWord(sentence.text, entry.split(' ')[0]!) ? entry : undefined;
}

/** The passage's last sentence, cut where the page ends ("... while reprogramming the flash ROM, each"): it goes on. */
function cutAtEnd(blocks: Block[], s: Scored): boolean {
  const last = blocks.at(-1);
  return (
    last?.kind === 'prose' && last.sentences.at(-1) === s.text && s.text.length > 80 && !/[.!?:;]["'’”)]*$/.test(s.text)
  );
}

// Where a page runs the next entry of an option list into the same paragraph: after a sentence, before an option.
const nextEntry = new RegExp(String.raw`(?<=[.!?]["'’”)]*)\s+(?=${OPTION})`, 'u');

/**
 * A text shown as printed, except that an option list's entry starts a line, its option as code set
 * apart from its description; the page may run entries into one sentence ("... ngspice only. -r FILE ...").
 */
function withOptionAsCode(text: string): string {
  return text
    .split(nextEntry)
    .map((piece, i) => {
      const head = runInEntryHead(piece);
      if (!head) return `${i > 0 ? ' ' : ''}${escapeMarkdown(piece)}`;
      return `${i > 0 ? '\\\n' : ''}${inlineCode(head)} ${escapeMarkdown(piece.slice(head.length).trimStart())}`;
    })
    .join('');
}

/**
 * Text shown for the sentences that end with `last`: named by the option or command they describe
 * (`subject`), and with "…" when the page cuts `last` off.
 */
function shownText(blocks: Block[], last: Scored, text: string, subject: string | undefined): string {
  const goesOn = cutAtEnd(blocks, last) && !text.endsWith('…');
  const shown = goesOn ? `${text}…` : text;
  return subject ? `${inlineCode(subject)}: ${escapeMarkdown(shown)}` : withOptionAsCode(shown);
}

/**
 * The direct answer's sentences: one paragraph's run on, another paragraph starts a new line. `entry`:
 * the option entry the passage goes on with from the page or chunk before (its heading's), which names
 * a first sentence read before the passage's own first entry when nothing nearer does.
 */
function directText(sentences: Scored[], blocks: Block[], entry = ''): string {
  const ownEntry = blocks.findIndex(opensEntry);
  const continues = (s: Scored) =>
    entry && (ownEntry === -1 || s.block < ownEntry) && !opensOptionEntry(s.text) && !s.text.includes(entry);
  const lines: string[] = [];
  sentences.forEach((s, i) => {
    const named =
      i === 0 || sentences[i - 1]!.block !== s.block
        ? (subjectOf(blocks, s) ?? (i === 0 && continues(s) ? entry : undefined))
        : undefined;
    // A subject the line above shows already (the section's heading is a chosen sentence) is not repeated.
    const subject = named && !sentences[i - 1]?.text.includes(named) ? named : undefined;
    const text = shownText(blocks, s, clip(s.text, DIRECT_ANSWER_CHARS), subject);
    // The next entry of an option list the page runs into one paragraph starts a line of its own.
    if (i > 0 && sentences[i - 1]!.block === s.block && !runInEntryHead(s.text)) lines[lines.length - 1] += ` ${text}`;
    else lines.push(text);
  });
  return lines.join('\\\n');
}

/**
 * The numbered heading of the lead's section, bold, when the lead starts further into the section than the
 * paragraph under its heading: "Several optimization examples ... tested using MPI" says which tool only under
 * "23.5 ngspice optimizer using ASCO", and "--xstack Uses a pseudo stack ..." which port only under "3.3.6 MCS51
 * Options". Not a table's cell that looks like one ("40.65 ms").
 */
function sectionNameOf(blocks: Block[], lead: Scored[]): string {
  const first = lead[0];
  const at = first ? blocks.slice(0, first.block).findLastIndex(opensSection) : -1;
  const name = at >= 0 ? headOf(blocks[at]!) : '';
  const named = at >= 0 && at < first!.block - 1 && !lead.some((s) => s.block === at) && /^\S+\s+\S{3}/.test(name);
  return named ? `**${escapeMarkdown(name)}**` : '';
}

/** Whether a block opens an option's entry: the option alone on its line, or run into its description. */
const opensEntry = (b: Block) => (b.kind === 'code' ? isOptionLine(b.text) : opensOptionEntry(headOf(b)));

/** The passage's numbered steps as an ordered list, when it holds a procedure (two steps or more). */
function stepsOf(blocks: Block[], terms: Terms, direct: Scored[]): string[] {
  const steps = blocks.filter((b) => b.kind === 'step');
  if (steps.length < 2) return [];
  // A numbered list elsewhere on the page (a list of criteria, of search paths) is no procedure for the
  // question: it is shown when it or the line that leads into it carries the question's terms, or when it
  // follows the direct answer.
  const firstStep = blocks.indexOf(steps[0]!);
  // A chunk that starts in the middle of a sentence opens with a paragraph of no sentence.
  const leadIn = blocks[firstStep - 1];
  const introduced =
    direct.some((s) => s.block < firstStep && s.block >= firstStep - 2) ||
    (leadIn?.kind === 'prose' && termScore(leadIn.sentences.at(-1) ?? '', terms) > 0);
  if (!introduced && !steps.some((step) => termScore(step.text, terms) > 0)) return [];
  // A procedure under another numbered section of the page than every sentence of the answer is another task's.
  if (direct.length > 0 && !direct.some((s) => sectionAt(blocks, s.block) === sectionAt(blocks, firstStep))) return [];
  const shown = steps.slice(0, MAX_STEPS);
  // Markdown numbers an ordered list on from its first item, so the list starts at the manual's first number.
  const lines = shown.map((s, i) => `${shown[0]!.number + i}. ${escapeMarkdown(clip(s.text, STEP_CHARS))}`);
  if (steps.length > shown.length) lines.push(`\n_${steps.length - shown.length} more steps on the page._`);
  return lines;
}

const onlyComments = (part: string) => part.split('\n').every((line) => /^\s*(?:#|\/\/|;|\/\*|\*|--\s|$)/.test(line));

/**
 * The code blocks a chosen sentence introduces with a colon, then those that name a term of the
 * question, else the one right after the chosen sentences (what they introduce); in page order.
 */
function codeOf(
  blocks: Block[],
  terms: Terms,
  direct: Scored[],
  shown: Set<number>,
): { index: number; text: string }[] {
  const after = direct.at(-1)?.block ?? -1;
  // A listing under another troubleshooting entry of the page answers that entry's problem, not this one.
  const startsEntry = (b: Block | undefined) =>
    b?.kind === 'prose' && /^(?:problem|symptom)\b/i.test(b.sentences[0] ?? '');
  const first = direct.length > 0 ? Math.min(...direct.map((s) => s.block)) : -1;
  // A listing above the numbered heading of the answer's section ends the section before.
  const ownEntry = (index: number) =>
    first < 0 ||
    !blocks.some(
      (b, i) =>
        (startsEntry(b) && ((i > after && i < index) || (i > index && i <= first))) ||
        (opensSection(b) && i > index && i <= first),
    );
  const code = blocks.flatMap((b, index) =>
    b.kind === 'code' && !shown.has(index) && ownEntry(index) ? [{ text: b.text, index }] : [],
  );
  if (code.length === 0) return [];
  // A bare number of the question ("exit code 0") says nothing of a listing that prints a 0 somewhere.
  const named = { ...terms, codes: terms.codes.filter((c) => !/^\d+$/.test(c)) };
  // The listings that carry the most of the question first; they are shown in page order.
  const matching = code
    .filter((c) => termScore(c.text, named) > 0)
    .sort((a, b) => termScore(b.text, named) - termScore(a.text, named));
  // Unless the sentences end in a colon ("add the following .option card:"), an option printed above its
  // own description ("-c programmer-id", "‘vectornum=<arg>’" above "Specify ...") is the next entry of an
  // option list, not what they introduce; one the text runs on from (".option rseries = 1.0e-4" above
  // "adds a series resistor ...") is part of the text.
  const introduces = after >= 0 && /:\s*$/.test(blocks[after]?.kind === 'prose' ? blocks[after].sentences.at(-1)! : '');
  const entryHead = (c: { text: string; index: number }) => {
    const description = blocks[c.index + 1];
    return (
      (isOptionLine(c.text) || isCommandEntry(c.text)) &&
      description?.kind === 'prose' &&
      /^\P{Ll}/u.test(description.sentences[0] ?? '')
    );
  };
  const next = code.find((c) => c.index > after && c.index <= after + 2 && (introduces || !entryHead(c)));
  // The listing a chosen sentence introduces ("add the following .option card:") is what it asks to type.
  const introduced = code.filter((c) => direct.some((s) => s.block === c.index - 1 && s.text.endsWith(':')));
  // A listing printed twice on the page (the same parameter under two programmers) is shown once.
  const chosen = oncePerText([
    ...new Set([...introduced, ...(matching.length > 0 ? matching : next ? [next] : [])]),
  ]).slice(0, MAX_CODE_BLOCKS);
  chosen.sort((a, b) => a.index - b.index);
  // A listing that carries clearly less of the question than the one after it (the example before, "Connect to the
  // JTAG ICE mkII which serial number ends up in 1C37 ...", above the one asked for, "List the serial numbers of all
  // JTAG ICEs ...") would push the one asked for off the first screen: only the one asked for is shown.
  // Not when the answer offers them as alternatives ("... can be configured using one of two methods:").
  const [earlier, later] = chosen;
  if (
    earlier &&
    later &&
    direct.some((s) => s.block === later.index - 1) &&
    !direct.some((s) => offersAlternatives.test(s.text)) &&
    termScore(later.text, named) > termScore(earlier.text, named) * WEAKER_LISTING
  )
    chosen.splice(0, 1);
  return chosen.map((c) => {
    let lines = c.text.split('\n');
    const all = lines.length;
    // A long listing shows its parts (between blank lines) that carry the question, not only its top.
    const parts = c.text.split(/\n\s*\n/);
    // A part that is only comments (a "# AVR128DB28" banner) names what follows; the lines to type are below it.
    const asked = parts.filter((part) => termScore(part, terms) > 0 && !onlyComments(part));
    if (all > CODE_LINES && asked.length > 0 && asked.length < parts.length) lines = asked.join('\n\n').split('\n');
    // A listing too long to show whole starts at the statement that carries the most of the question when
    // its top would hide it or push it to the window's lower half (".meas ac freq_at when v(out)=0.1", 28
    // lines down; "chip_erase_delay = <num> ; # micro-seconds", 10 lines down a part entry's 58).
    const scores = lines.map((line) => termScore(line, terms));
    let start = scores.indexOf(Math.max(...scores));
    if (lines.length <= CODE_LINES || start < CODE_LINES / 2) start = 0;
    while (start > 0 && /^[\s+]/.test(lines[start]!)) start--;
    const window = lines.slice(start, start + CODE_LINES);
    const shown = fenced(window.join('\n'));
    const more = all - window.length;
    return { index: c.index, text: more > 0 ? `${shown}\n\n_${more} more lines on the page._` : shown };
  });
}

function sourceOf(p: Passage, quote: string): ChatSource {
  return {
    manualId: p.manualId,
    title: p.title,
    page: p.page,
    fileUrl: p.fileUrl,
    quote: clip(quote, 200).replace(/…$/, ''),
  };
}

/**
 * The question's terms as the answer reads a page: a part family the technician names ("AVR32DD",
 * "pic18") is found in the rows of its members (avr32dd20), as the search finds it.
 */
const composerTerms = (question: string): Terms => ({ ...questionTerms(question), families: true });

/** The sentence of a passage that best carries the question's terms: what the viewer highlights. */
export function quoteOf(question: string, text: string): string {
  const blocks = parseBlocks(text);
  const [first] = pickSentences(sentencesOf(blocks, composerTerms(question)), 1);
  const fallback = blocks.find((b) => b.kind !== 'prose');
  return first?.text ?? (fallback && 'text' in fallback ? fallback.text.split('\n')[0]!.trim() : '');
}

/**
 * Text that is mostly not letters or digits: a diagram or a cable drawing read as text
 * ("1k CTS| .‘ |________"), which says nothing under "Also in your manuals".
 */
const isDrawing = (text: string) => {
  const marks = text.replace(/\s/g, '');
  return (marks.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 0.6 * marks.length;
};

// A value as printed: "1e-13", "0.5", "1.0e-12"; not a name ("8051", "16f628a", "3.3V").
const isValue = (code: string) => /^[+-]?(?:\d+\.\d*|\.\d+|\d+(?:\.\d*)?e[+-]?\d+)$/i.test(code);

/**
 * How much of the question a text carries, unweighted; nothing when it carries only a value the question
 * quotes ("default 1e-13"): parameter tables print such values everywhere ("is=1e-13" in a diode's model line).
 */
function carriedBeyondValues(text: string, terms: Terms): number {
  const named = { ...terms, codes: terms.codes.filter((code) => !isValue(code)) };
  return termScore(text, named) > 0 ? termScore(text, terms) : 0;
}

/** How much of the question the passage's best sentence or line of code carries, unweighted. */
const bestSentence = (passage: Passage, terms: Terms) => {
  const blocks = parseBlocks(passage.text);
  // An example listing answers by its lines (".meas ac freq_at when v(out)=0.1"), not by its few sentences.
  const lines = blocks.flatMap((b) => (b.kind === 'code' ? b.text.split('\n') : []));
  return Math.max(
    0,
    ...[...sentencesOf(blocks, terms, entryOf(passage.heading)).map((s) => s.text), ...lines].map((t) =>
      carriedBeyondValues(t, terms),
    ),
  );
};

/**
 * The passages with the one to lead the answer first: the best ranked, unless the next one has
 * a sentence that carries clearly more of the question (the ranking weighs whole chunks), or the
 * question asks how and a page a little lower shows what to type where the first shows nothing.
 */
function leadFirst(question: string, passages: Passage[], terms: Terms): Passage[] {
  const [first, second, ...rest] = passages;
  if (!first || !second) return passages;
  // An option the question types ("what does --model-large do") is answered by its own entry in an option
  // list, not by a page that mentions it ("Use --model-large for the mcs51 port").
  const options = terms.codes.filter((code) => code.startsWith('-'));
  const hasOwnEntry = (passage: Passage) =>
    parseBlocks(passage.text).some((b) => {
      const head = b.kind === 'code' && !isOptionLine(b.text) ? '' : headOf(b);
      return options.some((option) => head === option || head.startsWith(`${option} `));
    });
  // Unless the first carries an identifier of the question that the entry lacks: "-p code for attiny1634R"
  // asks for the part's row ("t1634r ATtiny1634R"), not for what -p does.
  const named = terms.codes.filter((code) => !code.startsWith('-'));
  const carriesNamed = (passage: Passage) =>
    named.filter((code) => termScore(passage.text, { ...terms, words: [], codes: [code] }) > 0).length;
  if (options.length > 0 && !hasOwnEntry(first) && hasOwnEntry(second) && carriesNamed(first) <= carriesNamed(second))
    return [second, first, ...rest];
  if (bestSentence(second, terms) > bestSentence(first, terms) * LEAD_MARGIN) return [second, first, ...rest];
  // "How do I ..." about an option the question types is answered by the option's own entry, where the first holds it.
  if (!asksHow.test(question) || (options.length > 0 && hasOwnEntry(first))) return passages;
  // "How do I ..." is answered by what to type: a page of the same manual a little lower that shows it leads
  // a page that only says a thing can be done ("Reading fuse and lock bits is fully supported.").
  const topical = { ...terms, words: terms.words.filter((w) => !hasWord(first.title, w)) };
  if (showsHow(first, topical)) return passages;
  const shower = passages
    .slice(1, HOW_CANDIDATES)
    .find(
      (p) =>
        p.manualId === first.manualId &&
        showsHow(p, topical) &&
        bestSentence(p, terms) * HOW_MARGIN >= bestSentence(first, terms),
    );
  return shower ? [shower, ...passages.filter((p) => p !== shower)] : passages;
}

const asksHow = /\bhow\s+(?:do|can|could|should|would)\s+(?:i|you|we|one)\b|\bhow\s+to\b/i;
/**
 * A page that shows how may lead from among the first three passages when its best sentence carries at
 * least half of what the first one's does. On the bench (bench/README.md, branch look5) this gains two tuned
 * first places and loses none; from the first four it loses a held-out one; for every question, not only
 * those that ask how, it loses 13 tuned ones.
 */
const HOW_CANDIDATES = 3;
const HOW_MARGIN = 2;

/**
 * Whether the passage shows what to type or do for the question: a listing that carries its terms or that a
 * sentence carrying them introduces, an option printed above a description that carries them ("‘nopagedwrite’"
 * above "... whole pages to be written to AVR flash ... this option disables it"), or a numbered step that
 * carries them ("1. Make local functions static, ... place called functions prior to calling functions").
 */
function showsHow(passage: Passage, terms: Terms): boolean {
  const blocks = parseBlocks(passage.text);
  return blocks.some((b, i) => {
    if (b.kind === 'step') return termScore(b.text, terms) > 0;
    if (b.kind !== 'code') return false;
    const described = blocks[i + 1];
    if (isOptionLine(b.text) && described?.kind === 'prose' && termScore(described.sentences.join(' '), terms) > 0)
      return true;
    const before = blocks[i - 1];
    const intro = before?.kind === 'prose' ? (before.sentences.at(-1) ?? '') : '';
    return termScore(b.text, terms) > 0 || (intro.endsWith(':') && termScore(intro, terms) > 0);
  });
}

const SHORT_BLOCK_LINES = 6;
const SHORT_BLOCK_CHARS = 480;
/** Whether a list or listing is short enough that the page's label under it stays on a phone's first screen. */
const fitsAboveLabel = (block: string) =>
  block.split('\n').filter((line) => line.trim() && !/^`{3,}$/.test(line)).length <= SHORT_BLOCK_LINES &&
  block.length <= SHORT_BLOCK_CHARS;

/**
 * The answer when no AI model is configured, composed from the retrieved passages (best
 * first, see leadFirst): a direct answer of up to three sentences of the best passage that carry the
 * question's terms, its numbered steps, its commands as printed, then at most two other pages
 * that carry the terms, shorter. Every page shown is cited [n] under its manual and page, and
 * only those are sources.
 */
export function composeAnswer(question: string, passages: Passage[]): ComposedAnswer {
  const terms = composerTerms(question);
  const [best, ...others] = leadFirst(question, passages, terms);
  if (!best)
    return { text: `No manual in the library matches this question yet.\n\n${LOCAL_ANSWER_NOTE}`, sources: [] };
  const blocks = parseBlocks(best.text);
  const asked = askedValue(question);
  const scored = sentencesOf(blocks, terms, entryOf(best.heading));
  const picked = pickSentences(
    scored,
    DIRECT_ANSWER_CHARS,
    160,
    asked && valueGiven(asked, blocks, scored, terms),
    true,
  );
  // A whole page holds several numbered sections: a sentence of another section than the answer's best
  // that carries less of the question ("sourcefile.cdb - An optional file (with --debug)" above "3.2.3
  // Projects with Multiple Source Files") is a line of a neighbouring topic that shares a word.
  // A sentence that explains a listing carries what the listing does ("This message occurs ..." under the error).
  const carried = (s: Scored) => termScore((s.explains ?? '') + s.text, terms);
  const top = picked.reduce<Scored | undefined>((a, s) => (a && carried(a) >= carried(s) ? a : s), undefined);
  const direct = picked.filter(
    (s) => !top || sectionAt(blocks, s.block) === sectionAt(blocks, top.block) || carried(s) >= carried(top),
  );
  // Pages are compared by the question's terms they carry, unweighted: a word's weight depends on its page's length.
  const bestScore = Math.max(0, ...direct.map(carried));
  // The manual's own name ("sdcc", "ngspice") is on most of its pages: a numbered list or a listing that
  // carries only it answers nothing.
  const topical = { ...terms, words: terms.words.filter((w) => !hasWord(best.title, w)) };
  const steps = stepsOf(blocks, topical, direct);
  const { rows, direct: shownFirst, shows } = rowsOf(blocks, direct, terms);
  // A sentence that leads into the steps ("When reporting a bug please make sure you:") ends the direct
  // answer, so the list follows it; what the page says after the list would come before it.
  const firstStep = blocks.findIndex((b) => b.kind === 'step');
  const leadIn =
    steps.length > 0 ? shownFirst.find((s) => s.block === firstStep - 1 && s.text.endsWith(':')) : undefined;
  const beforeSteps = leadIn ? shownFirst.filter((s) => s.order <= leadIn.order) : shownFirst;
  // An option printed above its description is in the lead already, not again as a code block.
  const subjects = new Set(
    beforeSteps.filter((s) => blocks[s.block - 1]?.kind === 'code' && subjectOf(blocks, s)).map((s) => s.block - 1),
  );
  const code = codeOf(blocks, topical, direct, subjects);
  // A sentence that introduces a listing or a table the answer does not show ("The pin mapping for the
  // JTAG-to-ISP adapter is:") promises what does not follow.
  const shownCode = new Set(code.map((c) => c.index));
  const promisesUnshown = (s: Scored) => {
    const next = blocks[s.block + 1];
    if (!s.text.endsWith(':')) return false;
    // A listing not shown is promised whatever sentence of the answer comes after it.
    if (next?.kind === 'code') return !shownCode.has(s.block + 1) && !subjects.has(s.block + 1);
    // Rows shown from another list of the page ("... the following files:" above the command's rows) are not its.
    return isRow(next) && !shows(s.block + 1) && !beforeSteps.some((o) => o.order === s.order + 1);
  };
  const kept = beforeSteps.filter((s) => !promisesUnshown(s));
  // A page that answers only by a listing (no sentence carries the question: "Other examples:" above
  // ".meas ac freq_at when v(out)=0.1") leads with the line that introduces it, not with its first sentences.
  const intro = code[0] && blocks[code[0].index - 1];
  const introduced: Scored[] =
    intro?.kind === 'prose' && intro.sentences.at(-1)?.endsWith(':')
      ? [{ text: intro.sentences.at(-1)!, score: 0, order: -1, block: code[0]!.index - 1 }]
      : [];
  const lead = bestScore === 0 && code.length > 0 ? introduced : kept.length > 0 ? kept : beforeSteps;
  const leadText = [sectionNameOf(blocks, lead), directText(lead, blocks, entryOf(best.heading))]
    .filter(Boolean)
    .join('\\\n');
  const quote = lead[0]?.text ?? direct[0]?.text ?? quoteOf(question, best.text);
  const sources = [sourceOf(best, quote)];

  const body = [
    ...(rows.length > 0 ? [rows.join('\n')] : []),
    ...(steps.length > 0 ? [steps.join('\n')] : []),
    ...code.map((c) => c.text),
  ];
  const cited = `*${label(best)}* [1]`;
  // A lead that ends in a colon introduces the list or listing under it, and the page's label between them
  // would part them: it comes under a short one, or above the lead when the block is too long for the label
  // under it to show on a phone's first screen.
  const introduces = lead.at(-1)?.text.endsWith(':') === true && body.length > 0;
  const parts = !leadText
    ? [cited, ...body]
    : !introduces
      ? [`${leadText}\\\n${cited}`, ...body]
      : fitsAboveLabel(body[0]!)
        ? [leadText, body[0]!, cited, ...body.slice(1)]
        : [`${cited}\\\n${leadText}`, ...body];

  // A further page's excerpt: its sentences that carry the question, how much of the question they carry
  // (unweighted, comparable between pages), and the best one's weighted score (rarer words, an option named).
  type Excerpt = { passage: Passage; blocks: Block[]; sentences: Scored[]; carries: number; weight: number };
  const excerptOf = (passage: Passage): Excerpt => {
    const passageBlocks = parseBlocks(passage.text);
    // A numbered heading alone ("3.2 Terminal Mode Examples") names a section and says nothing of it.
    const sentences = pickSentences(
      sentencesOf(passageBlocks, terms, entryOf(passage.heading)),
      FURTHER_CHARS,
      80,
    ).filter((s) => !isDrawing(s.text) && !(sectionHeading.test(s.text) && !/[.!?]["'’”)]*$/.test(s.text)));
    const carries = Math.max(0, ...sentences.map((s) => carriedBeyondValues(s.text, terms)));
    const weight = Math.max(0, ...sentences.map((s) => s.score));
    return { passage, blocks: passageBlocks, sentences, carries, weight };
  };
  const pageOf = (p: Passage) => `${p.manualId}:${p.page}`;
  const shownPages = new Set([pageOf(best)]);
  const shown: Excerpt[] = [];
  for (const passage of others) {
    if (shown.length === 2) break;
    const key = pageOf(passage);
    // A contents or index page names the subject and answers nothing (the ranking's own rule).
    if (shownPages.has(key) || isListing(passage.text)) continue;
    // A page found by several of its chunks is excerpted from the chunk whose excerpt carries the most of the
    // question, then the rarest of its words: the first found may only share a word ("The switch model allows
    // an almost ideal switch ...") where another holds the answer.
    const excerpt = others
      .filter((p) => pageOf(p) === key && !isListing(p.text))
      .map(excerptOf)
      .reduce((a, b) => (b.carries > a.carries || (b.carries === a.carries && b.weight > a.weight) ? b : a));
    // A page is shown only when it carries the question about as well as the best one does. A page of
    // another manual, ranked below the second, only when as well: a question is about one machine,
    // and such a page that shares a word of it ("default", "skip") is noise under the answer; ranked
    // second, it is where the ranking hesitated between two manuals and often the right one.
    const needed = passage.manualId === best.manualId || passages.indexOf(passage) <= 1 ? bestScore / 2 : bestScore;
    if (excerpt.sentences.length === 0 || excerpt.carries < Math.max(1, needed)) continue;
    shownPages.add(key);
    shown.push(excerpt);
  }
  // The lower ranked page comes first when it carries clearly more of the question, or as much but clearly more of
  // its rarer words: the second one shown often falls below the first screen.
  const [first, second] = shown;
  if (
    first &&
    second &&
    (second.carries > first.carries * FURTHER_MARGIN ||
      (second.carries === first.carries && second.weight > first.weight * FURTHER_MARGIN))
  )
    shown.reverse();
  const further = shown.map(({ passage, blocks: passageBlocks, sentences }) => {
    sources.push(sourceOf(passage, sentences[0]!.text));
    const joined = clip(sentences.map((s) => s.text).join(' '), FURTHER_CHARS);
    // An option list's entry is named by its option, as the lead is ("`‘serial_recv_timeout=1...’`: Especially ...").
    const text = shownText(passageBlocks, sentences.at(-1)!, joined, subjectOf(passageBlocks, sentences[0]!));
    return `**${label(passage)}** [${sources.length}]\\\n${text}`;
  });
  if (further.length > 0) parts.push(`**Also in your manuals**\n\n${further.join('\n\n')}`);
  parts.push(LOCAL_ANSWER_NOTE);
  return { text: parts.join('\n\n'), sources };
}
