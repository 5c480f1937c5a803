/**
 * One way to tell a line that opens an option's or a command's entry in a reference list ("-e Causes a
 * chip erase", ".tran tstep tstop", "```\n-C config-file\n```" then its description): chunking carries an
 * entry's head into the chunks that go on with it (chunk-sections.ts), retrieval finds the entry a
 * chunk opens with and embeds a list's entries one by one (rank.ts, indexer.ts), and the composed
 * answer names the option a sentence describes (compose.ts). The callers differ only in how much of
 * the line they take: the option or command alone (ENTRY_LINE), or the option with its arguments
 * (entryHead, runInEntryHead). Migrations 027/028 find short options at a line's start in SQL, for
 * the search index; they are history and say it their own way.
 */

/** An option as printed: one dash or two, a letter, then letters, digits, '_' or '-' ("-B", "--model-large", "-Wl"). */
export const OPTION = String.raw`--?[A-Za-z][\w-]*`;

/** A dot command, as a netlist or a command list prints it: ".tran", ".ENDS", ".options". */
export const DOT_COMMAND = String.raw`\.[A-Za-z]\w*`;

/** Whether a line is a fence, which the extractor sets around a listing and around a name set alone. */
export const isFence = (line: string | undefined) => !!line?.trimStart().startsWith('```');

/**
 * Whether lines[at] is set alone between fences: an entry's name too long for an option list's left
 * column ("```\n-U memtype:op:filename[:format]\n```"), its description in the paragraph after it.
 * Asked of a line inside a listing: a line of prose between two listings has fences on both sides too.
 */
export const aloneInFences = (lines: string[], at: number) => isFence(lines[at - 1]) && isFence(lines[at + 1]);

/**
 * A line that opens a reference entry with the option or command it describes, whatever follows it:
 * "-e Causes a chip erase", "--fsigned-char By default char is unsigned", ".tran tstep tstop".
 */
export const ENTRY_LINE = new RegExp(String.raw`^(?:${OPTION}|${DOT_COMMAND})(?=[\s:=<]|$)`);

// An option with the value joined to it ("--std=c99"), as an entry's head may print it.
const optionToken = String.raw`${OPTION}(?:=\S+)?`;
// "<Name>", "[:format]", "FILE", "-r": set apart from a description's words by their form.
const setApart = String.raw`${optionToken}|<[^>\n]+>|\[[^\]\n]+\]|[A-Z][A-Z\d_]+`;
// A word in lower case ("partno", "programmer-id", "linkOption[,linkOption]..."): one at most before a description.
const named = String.raw`[a-z](?:[\w[\]:,./-]*[\w\]])?(?:\.\.\.)?`;
// The head alone on its line: the option and one to three arguments ("-U memtype:op:filename[:format]").
const argumentsAlone = String.raw`(?:,?[ \t]+(?:${setApart}|${named})){1,3}$`;
// The head run into its description, which starts with a capital ("-p partno This option tells ...").
const argumentsRunIn = String.raw`(?:,?[ \t]+(?:${setApart})){0,3}(?:[ \t]+${named})?(?=[ \t]+\p{Lu})`;

// An option alone is no entry's head ("-j8" under "make"), nor is one a sentence goes on from in lower case.
const ENTRY_HEAD = new RegExp(String.raw`^${optionToken}(?:${argumentsAlone}|${argumentsRunIn})`, 'u');
const RUN_IN_HEAD = new RegExp(String.raw`^${optionToken}${argumentsRunIn}`, 'u');

/**
 * The head of the option entry a line opens, the option with its arguments, alone on the line or run
 * into its description ("--codeseg <Name> The name to be used ..." gives "--codeseg <Name>"); '' if none.
 */
export const entryHead = (line: string) => ENTRY_HEAD.exec(line.trim())?.[0] ?? '';

/** Whether a line of text opens an option's entry ("-i delay For bitbang-type programmers, ..."). */
export const opensOptionEntry = (line: string) => entryHead(line) !== '';

/**
 * The head of the option entry a sentence opens run into its description ("-r FILE --rawfile=FILE Use
 * rawfile as ..." gives "-r FILE --rawfile=FILE"), or '': a page may run an option list's entries into
 * one paragraph, where a head with nothing after it is none.
 */
export const runInEntryHead = (text: string) => RUN_IN_HEAD.exec(text)?.[0] ?? '';
