export type IdentifierKind = 'model' | 'part' | 'serial' | 'error';

export interface Identifier {
  kind: IdentifierKind;
  value: string;
}

// Labels as printed on nameplates, stickers and displays. OCR reads O for 0 and 1 for I inside
// labels too, so each label tolerates both.
const O = '[O0]';
const I = '[I1l|]';
const number = `(?:\\s*(?:N${O}\\.?|NUMBER|#))?`;
const labels: { kind: IdentifierKind; pattern: string }[] = [
  { kind: 'serial', pattern: `[S5g]\\s*[/I1l|]\\s*N|SER${I}AL${number}|SER\\.?\\s*N${O}\\.?` },
  { kind: 'part', pattern: `P\\s*/\\s*N|PART${number}|REF\\.?|SPARE${number}|TAG${number}` },
  { kind: 'model', pattern: `M\\s*/\\s*N|M${O}DE${I}${number}|M${O}D\\.|TYPE|CAT\\.?\\s*N${O}\\.?` },
  { kind: 'error', pattern: `ERR${O}R(?:\\s*C${O}DE)?|ERR\\.?|FAU${I}T(?:\\s*C${O}DE)?|A${I}ARM|A${I}M|C${O}DE` },
];
const labelled = new RegExp(
  `(?:^|[^\\p{L}])(${labels.map((l) => `(?<${l.kind}>${l.pattern})`).join('|')})\\s*[:.=#-]?\\s*([A-Z0-9][A-Z0-9./-]{0,23}(?: \\d[A-Z0-9./-]{0,10})?)`,
  'giu',
);
// A value of letters and digits such as XR-200, PN-4471-B, GB90: what a model or part number looks like.
// Also a chip's part number, with its letter suffix or in mixed case: CH340G, PIC16F877A, ATmega328P.
const codeLike =
  /(?:^|[\s(,;:])([A-Z]{1,5}-?[0-9OIlS]{2,6}(?:-[A-Z0-9]{1,6})*|[A-Z]{1,5}\d{2,6}[A-Z][A-Z0-9]{0,4}|[A-Z]{2}[a-z]{2,5}\d{1,4}[A-Z0-9]{0,4})(?=$|[\s),;:.])/gmu;
// An error code alone on a display line: E4, F28, A-07, Er 12, H05.
const displayCode = /^\s*(?:ERR?\s*)?([EFAHLCP]\s?-?\s?[0-9OIl]{1,3})\s*$/gimu;

/** Digits that OCR read as letters, in a place that holds digits (next to other digits). */
const asDigit: Record<string, string> = {
  O: '0',
  o: '0',
  Q: '0',
  D: '0',
  I: '1',
  l: '1',
  '|': '1',
  S: '5',
  s: '5',
  B: '8',
  Z: '2',
  G: '6',
};

/**
 * Puts back the digits OCR misread as letters inside a value's digit groups: "XR-2OO" is
 * XR-200, "PN-447l-B" is PN-4471-B, "GB9O" is GB90. A group of letters (XR, PN) is left alone.
 */
export function repairValue(value: string): string {
  return value
    .split(/([-/. ])/)
    .map((group) => {
      const chars = [...group];
      // A group of digits with a few look-alike letters among them: all digits.
      if (/\d/.test(group) && chars.every((c) => /\d/.test(c) || (c in asDigit && c !== 'D' && c !== 'G')))
        return chars.map((c) => asDigit[c] ?? c).join('');
      // A letter prefix then digits ("E4", "GB9O", "XR2OO"): the digit tail only.
      const match = /^([A-Za-z]{0,5})(\d[\dOoIl|SsBZ]*)$/.exec(group);
      return match ? match[1] + [...match[2]!].map((c) => asDigit[c] ?? c).join('') : group;
    })
    .join('')
    .toUpperCase();
}

/**
 * What an identifier is compared by: letters and digits only, with the characters OCR confuses
 * folded together (O/0, I/L/1, S/5, B/8, Z/2, G/6), so "XR-2OO" and "XR 200" compare equal.
 */
export function canonical(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/[OQD]/g, '0')
    .replace(/[IL]/g, '1')
    .replace(/S/g, '5')
    .replace(/B/g, '8')
    .replace(/Z/g, '2')
    .replace(/G/g, '6');
}

const plausible = (kind: IdentifierKind, value: string) => {
  const core = value.replace(/[^A-Z0-9]/gi, '');
  // Every code here has a digit, once repaired: a word of letters ("error: could not") is no code.
  if (!/[0-9]/.test(core)) return false;
  if (kind === 'error') return core.length >= 1 && core.length <= 6;
  return core.length >= 3;
};

/**
 * Picks out the model numbers, part numbers, serial numbers and error codes in the text read
 * from a photo: first those next to a label (MODEL, S/N, P/N, ERROR...), then free-standing
 * values that look like a model (XR-200) or a display's code (E4). Values are repaired for
 * the usual OCR confusions; each appears once.
 */
export function findIdentifiers(text: string): Identifier[] {
  const found: Identifier[] = [];
  const seen = new Set<string>();
  const add = (kind: IdentifierKind, raw: string) => {
    const trimmed = raw.replace(/[./-]+$/, '').replace(/\s+/g, ' ');
    // A serial number mixes letters and digits freely: it is kept as read.
    const value = kind === 'serial' ? trimmed.toUpperCase() : repairValue(trimmed);
    if (!plausible(kind, value) || seen.has(canonical(value))) return;
    seen.add(canonical(value));
    found.push({ kind, value });
  };
  for (const match of text.matchAll(labelled)) {
    const kind = labels.find((l) => match.groups?.[l.kind])!.kind;
    add(kind, match[match.length - 1]!);
  }
  for (const match of text.matchAll(displayCode)) add('error', match[1]!);
  for (const match of text.matchAll(codeLike)) {
    const value = match[1]!;
    // "PN-..." is a part number by its prefix; other free-standing codes are taken for the model.
    // A single letter and one or two digits (F28) is an error code, not a model.
    add(/^P\/?N-?/i.test(value) ? 'part' : /^[A-Z]-?\d{1,2}$/.test(value) ? 'error' : 'model', value);
  }
  // Said in the order a technician names a unit: what it is, then what it shows.
  return found.sort((a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind));
}

const kindOrder: IdentifierKind[] = ['model', 'part', 'serial', 'error'];
