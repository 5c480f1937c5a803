// Manual metadata without a model (SPEC.md sections 5, 7 and 9): the title, technology,
// publication date and part number read from the first text of a manual by plain heuristics.
// 'Unknown' marks what was not found, as the AI schema does.
import { type ManualMetadata, UNKNOWN } from './file-name.js';

/** The first match wins, so the vocabulary lists specific trades before broad ones. */
const technologies: [string, RegExp][] = [
  ['HVAC', /\bhvac\b|air[- ]condition|rooftop unit|heat pump|air handl|\bahu\b|ventilation|furnace|thermostat/gi],
  [
    'Refrigeration',
    /refrigerat|\bchillers?\b|evaporator|condensing unit|cold room|walk-in cooler|\bR-?(?:22|134a|404A|407C|410A|32|290|744)\b/gi,
  ],
  ['Boilers', /\bboilers?\b|\bburners?\b|combustion|\bflue\b/gi],
  ['Pumps', /\bpumps?\b|centrifugal|impeller/gi],
  ['Generators', /\bgenerators?\b|\bgensets?\b|alternator/gi],
  ['Solar', /\bsolar\b|photovoltaic|\bpv (?:module|array|system|inverter)/gi],
  ['PLC', /\bplcs?\b|programmable (?:logic )?controller|ladder logic|\bsimatic\b|allen[- ]bradley/gi],
  ['Motors & drives', /variable (?:frequency|speed) drive|\bvfds?\b|\bac drives?\b|\bservo\b|\bmotors?\b/gi],
  ['Networking', /\bnetwork|ethernet|\brouters?\b|\bvlans?\b|tcp\/ip|\bwi-?fi\b/gi],
  ['Hydraulics', /hydraulic/gi],
  ['Pneumatics', /pneumatic|compressed air/gi],
  ['Fire safety', /fire alarm|sprinkler|smoke detector|fire suppression/gi],
  ['Elevators', /\belevators?\b|escalators?/gi],
  ['Electrical', /electrical|switchgear|circuit breaker|\bwiring\b|transformer|\bpanelboard/gi],
];

/** The trade named most often in the text; ties go to the earlier entry. */
export function detectTechnology(text: string): string {
  let best = UNKNOWN;
  let bestCount = 0;
  for (const [name, pattern] of technologies) {
    const count = text.match(pattern)?.length ?? 0;
    if (count > bestCount) [best, bestCount] = [name, count];
  }
  return best;
}

const month =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const year = '(?:19[5-9]\\d|20\\d\\d)';
const datePatterns = [
  `${year}-[01]\\d-[0-3]\\d`, // 2021-03-15
  `[0-3]?\\d\\s+${month}\\s+${year}`, // 15 March 2021
  `${month}\\s+[0-3]?\\d,\\s*${year}`, // March 15, 2021
  `${month}\\s+${year}`, // March 2021
  `[01]?\\d[/.]${year}`, // 03/2021
];
const anyDate = new RegExp(`\\b(?:${datePatterns.join('|')})\\b`, 'i');
const labelledYear = new RegExp(
  `(?:\\brev(?:ision)?\\.?|\\bedition|\\bpublished|\\bissued?|©|\\(c\\)|\\bcopyright)\\s*:?\\s*(?:[A-Z]?\\d{0,2}\\s*[,/-]?\\s*)?(${year})\\b`,
  'i',
);
const labelledDate = new RegExp(
  `(?:publication date|date of issue|published|issued|revision date|release date|date)\\s*:?\\s*(${datePatterns.join('|')}|${year})\\b`,
  'i',
);

/** A labelled date, else the first full date, else a year after Rev./©/Edition. */
export function detectDate(text: string): string {
  const found = labelledDate.exec(text)?.[1] ?? anyDate.exec(text)?.[0] ?? labelledYear.exec(text)?.[1];
  return found ? found.replace(/\s+/g, ' ') : UNKNOWN;
}

const partValue = '([A-Z0-9][A-Z0-9._/-]{1,30}[A-Z0-9])';
const partPatterns = [
  new RegExp(`\\b(?:part|catalog(?:ue)?|order(?:ing)?)\\s*(?:no\\.?|number|#|code)\\s*[:#]?\\s*${partValue}`, 'i'),
  new RegExp(`\\bP/?N\\s*[:#]\\s*${partValue}`, 'i'),
  /\b(PN-[A-Z0-9][A-Z0-9-]*[A-Z0-9])\b/i,
  new RegExp(`\\b(?:doc(?:ument)?\\.?|publication)\\s*(?:no\\.?|number|#|id)\\s*[:#]?\\s*${partValue}`, 'i'),
  new RegExp(`\\bmodel(?:\\s*(?:no\\.?|number|#))?\\s*[:#]\\s*${partValue}`, 'i'),
];

/** A labelled part number (Part No., P/N, PN-..., Doc. No., Model:) that holds a digit. */
export function detectPartNumber(text: string): string {
  for (const pattern of partPatterns) {
    const value = pattern.exec(text)?.[1];
    if (value && /\d/.test(value)) return value;
  }
  return UNKNOWN;
}

const manualWords =
  /\b(?:manual|guide|handbook|instructions?|installation|operation|operating|maintenance|service|reference|datasheet|data sheet)\b/i;
const noiseLine = /^(?:page\s*\d+|\d+\s*(?:of|\/)\s*\d+|copyright|©|www\.|https?:|all rights reserved|confidential)/i;

function isSubstantial(line: string): boolean {
  const letters = line.replace(/[^\p{L}]/gu, '').length;
  return (
    line.length >= 8 &&
    line.length <= 150 &&
    line.split(/\s+/).length >= 2 &&
    letters >= line.length / 2 &&
    !noiseLine.test(line) &&
    !anyDate.test(line)
  );
}

/** A title page's name in one word ("AVRDUDE", "Fluke"): too short to pass as substantial on its own. */
const nameWord = /^[\p{L}][\p{L}\d+-]{2,29}$/u;

/**
 * A "Title:" line, else the first substantial line (plus the next one when it says "... Manual"),
 * or the one-word name on the document's first line when that line is only a description of it
 * ("AVRDUDE" over "A program for ..."): the name is what the manual is called, and every citation
 * of it stays short on a phone.
 */
export function detectTitle(text: string): string {
  const labelled = /^\s*title\s*[:-]\s*(.{3,150})$/im.exec(text)?.[1];
  if (labelled) return labelled.trim();
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .slice(0, 40);
  const index = lines.findIndex(isSubstantial);
  if (index < 0) return UNKNOWN;
  const first = lines[index]!.replace(/[.:;,]+$/, '');
  const next = lines[index + 1];
  const joinNext =
    next && !manualWords.test(first) && manualWords.test(next) && isSubstantial(next) && /^[^:]*$/.test(next);
  const title = joinNext ? `${first} ${next.replace(/[.:;,]+$/, '')}` : first;
  // Only a subtitle that reads as a description ("A program for ...") gives way to the name; a brand over
  // a title line ("Carrier" over "WeatherMaker 48/50 ...") is left out.
  const describes = /^(?:an?|the)\s/i.test(first) || lines[index]!.endsWith('.');
  const name = index === 1 && describes && nameWord.test(lines[0]!) && !noiseLine.test(lines[0]!) ? lines[0]! : '';
  return name && !title.toLowerCase().includes(name.toLowerCase()) ? name : title;
}

/** Metadata from the document text alone; the file-name fallback is applied by readManualMetadata. */
export function extractManualMetadata({ text }: { text: string }): ManualMetadata {
  return {
    title: detectTitle(text),
    technology: detectTechnology(text),
    datePublished: detectDate(text),
    partNumber: detectPartNumber(text),
  };
}
