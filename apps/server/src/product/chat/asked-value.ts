import { hasWord, questionTerms } from '../retrieval/passage-text.js';

// Questions that ask for a value ("how big", "what baud", "which window if I don't pick one") and the
// sentences that give one: the answer's direct lines are chosen by them (compose.ts, pickSentences).

/** What a question that asks for a value ("how big", "what baud", "which window if I don't pick one") wants. */
export interface AskedValue {
  /** The units the value comes in, when the question's words name a kind of quantity ("how big": bytes). */
  unit?: RegExp;
  /** The question's word for the quantity ("baud", "voltage"): a sentence that names it with a number gives it. */
  quantity?: string;
  /** The question asks for an amount ("how many", "what voltage"): a number gives it. */
  amount: boolean;
  /** The question asks what holds when nothing is set ("what's the default", "if I don't pick one"). */
  fallback: boolean;
}

// Kinds of quantity by the words a question asks with, and the units a manual gives them in.
const QUANTITIES: { asked: RegExp; unit: RegExp }[] = [
  { asked: /^(?:big|large|small|size|memory|flash|ram|rom|eeprom)$/, unit: /[kKM]?[bB]ytes?|bits?|[kKMG]i?B|words?/ },
  {
    asked: /^(?:long|short|often|timeout|delay|time)$/,
    unit: /s|ms|us|µs|μs|ns|sec(?:onds?)?|minutes?|hours?|cycles?/,
  },
  { asked: /^(?:fast|slow|speed|baud|rate|frequency|clock)$/, unit: /baud|bps|[kMG]?Hz|bit\/s/ },
  { asked: /^(?:voltage|volts?)$/, unit: /[mk]?V|volts?/ },
  { asked: /^current$/, unit: /[mµμn]?A|amps?/ },
  { asked: /^(?:hot|cold|temperature)$/, unit: /°\s?C|degrees?/ },
];
const howMuch = /\bhow\s+(big|large|small|long|short|many|much|fast|slow|often|high|low|hot|cold)\b/i;
const whatValue =
  /\b(?:what|which)(?:'s|\s+is|\s+are)?\s+(?:the\s+)?(?:[\p{L}\d-]+\s+)?(size|baud|voltage|volts|frequency|speed|rate|clock|current|temperature|timeout|delay|length|width|limit|maximum|minimum|value|address|version)\b/iu;
const asksFallback =
  /\bdefaults?\b|\bif\s+(?:[\p{L}-]+\s+){1,3}(?:don'?t|doesn'?t|do\s+not|does\s+not|never)\s+(?:pick|set|give|pass|specify|choose|select)\b|\bwhat\s+does\s+\S+\s+assume\b/iu;

/** The value a question asks for, if it asks for one; English question forms only. */
export function askedValue(question: string): AskedValue | undefined {
  const word = (howMuch.exec(question) ?? whatValue.exec(question))?.[1]?.toLowerCase();
  const fallback = asksFallback.test(question);
  if (!word && !fallback) return undefined;
  // "how much flash", "how many iterations": the thing measured names the quantity better than "much".
  const next = /^(?:much|many)$/.test(word ?? '')
    ? /\bhow\s+(?:much|many)\s+(\p{L}+)/iu.exec(question)?.[1]?.toLowerCase()
    : undefined;
  const measured = next && questionTerms(next).words.length > 0 ? next : undefined;
  const kind = QUANTITIES.find((q) => q.asked.test(measured ?? '')) ?? QUANTITIES.find((q) => q.asked.test(word ?? ''));
  const named =
    word && !/^(?:big|large|small|long|short|many|much|fast|slow|often|high|low|hot|cold|value)$/.test(word);
  return { unit: kind?.unit, quantity: measured ?? (named ? word : undefined), amount: word !== undefined, fallback };
}

// A number as a value, not a name: "19200", "3-byte", "1.0e-12", "10−3"; not "8051" of "ds390", nor "3.5.1" of a heading.
const numberValue = /(?<![\p{L}\p{N}_.])[+-]?\d+(?:[.,]\d+)?(?:e[+-−]?\d+)?(?![\p{L}\p{N}_]|\.\d)/iu;
// "If not set, the default is hanning.", "(default 2)", "defaults to /dev/ttyS0", "default value of 0".
const givesDefault = /\bdefault(?:s| value| setting)?\s*(?:is|are|will be|of|to|=|:)\s|\(default\b|\bdefaults\s+to\b/i;
// Where a page points to, not a value: "page 52", "section 3.3"; a heading's number ("4 Configuration File").
const reference = /\b(?:page|pages|section|chapter|figure|fig\.|table|appendix)\s+[\d.]+|\(\d+(?:\.\d+)+\)/gi;
const sectionNumber = /^\d+(?:\.\d+)*\.?\s+(?=\p{Lu})/u;

/**
 * Whether a sentence gives the value asked for: 0 if not, 1 for a number (in the units asked for, if any)
 * or a default, 2 when it also names the quantity or the thing measured ("up to 32 KB of Flash").
 */
export function givesValue(text: string, asked: AskedValue, quoted: string[]): number {
  const names = asked.quantity !== undefined && hasWord(text, asked.quantity) ? 2 : 1;
  if (asked.fallback && givesDefault.test(text)) return names;
  // "Which window if I don't pick one" asks for a default, not for any number the page prints.
  if (!asked.amount) return 0;
  // A number the question quotes ("on 8051", "default 1e-13") is what it asks about, not the answer.
  const rest = quoted.reduce(
    (t, code) => t.replace(new RegExp(code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), ' '),
    text.replace(sectionNumber, '').replace(reference, ' '),
  );
  if (!numberValue.test(rest)) return 0;
  if (!asked.unit) return names;
  const inUnits = new RegExp(String.raw`(?<![\p{L}_])\d+(?:[.,]\d+)?\s*-?\s*(?:${asked.unit.source})(?!\p{L})`, 'u');
  return inUnits.test(rest) || names === 2 ? names : 0;
}
