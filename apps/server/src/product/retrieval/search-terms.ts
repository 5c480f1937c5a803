/**
 * A value with its unit as typed ("3.3V", "1kHz", "100MEG", "8k"): a setting of the technician's own
 * circuit or board, not a name the manual is indexed by. A page that holds it holds it as an example
 * (".disto ... 1kHz" above the .four page a harmonic-distortion question needs), and as an identifier
 * it outweighed every word of the question.
 */
const isQuantity = (term: string) =>
  /^\d+(?:\.\d+)?(?:(?:[pnumkgt]|meg)?(?:hz|v|a|ohms?|s|f|h|w|db|degc|b|bytes?|bits?|baud)|k|meg)$/i.test(term);

/**
 * The question with a temperature typed with a unit symbol ("85 degC", "85°C") spelt as a manual
 * writes it ("85 degrees celsius"): the symbol is in no manual's index, nor in the word vectors.
 */
export const spellOutTemperatures = (question: string) =>
  question.replace(
    /(\d)\s*(?:°|deg\.?\s*)([CF])(?!\p{L})/giu,
    (_, digit: string, unit: string) => `${digit} degrees ${unit.toUpperCase() === 'C' ? 'celsius' : 'fahrenheit'}`,
  );

/** A negation typed without its apostrophe ("doesnt", "wont"); not "cant", an English word of its own. */
const NEGATION_WITHOUT_APOSTROPHE =
  /(?<!\p{L})(?:do|does|did|is|are|was|were|wo|could|should|would|has|have|had)nt(?!\p{L})/giu;

/**
 * Splits a question into search terms: words go to the English stemmer; identifiers (terms
 * with a digit, such as PN-4471-B, E42 or 0x1F, names with an underscore or inner capital,
 * such as gpio_set_level or setTimeout, dot names and long options such as .spiceinit or
 * --stack-auto, file names such as avrdude.conf and paths such as /dev/ttyS0) are matched as typed.
 * A value with its unit (isQuantity) is no term.
 */
export function searchTerms(question: string): {
  words: string[];
  codes: string[];
  pairs: string[];
  options: string[];
  acronyms: string[];
  abbreviated: string[];
} {
  const raw = spellOutTemperatures(question)
    // A negation ("won't", "doesn't") is no search term: its stem ("won", "doesn") would select
    // the few pages that happen to say it. Typed on a phone it often lacks its apostrophe ("doesnt"),
    // a word no manual holds, which only lowers every page's coverage.
    .replace(/\p{L}+n['’]t(?!\p{L})/giu, 'not')
    .replace(NEGATION_WITHOUT_APOSTROPHE, 'not')
    .split(/[^\p{L}\p{N}._/-]+/u)
    .filter((t) => t.length <= 64);
  // The index drops the leading dot or dash (".spiceinit" is indexed as spiceinit): the term
  // keeps the name without it, and is matched as an identifier. A shorter one (a file type such
  // as .lib, an option letter such as -B) is as common as the word or letter it is: a word.
  const named = new Set(
    raw.filter((t) => /^(?:\.|--?)\p{L}[\p{L}\p{N}_-]{3}/u.test(t)).map((t) => t.replace(/^[.-]+|[._/-]+$/g, '')),
  );
  const isCode = (t: string) =>
    /\d/.test(t) || /_/.test(t) || /\p{Ll}\p{Lu}/u.test(t) || /\p{L}\.\p{L}/u.test(t) || /^\//.test(t) || named.has(t);
  // Words joined by a slash ("push/pop") are indexed whole, matching only text that writes them
  // so: each word is a term of its own (the text may say "pushing and popping").
  const tokens = raw
    // A path keeps its leading slash, as the index keeps it ('/dev/ttys0').
    .map((t) => t.replace(/^\/+(?=[^/]*$)/, '').replace(/^[._-]+|[._/-]+$/g, ''))
    .flatMap((t) => (isCode(t) ? [t] : t.split('/')))
    .filter((t) => t.length > 0);
  const unique = [...new Set(tokens.map((t) => (isCode(t) ? t : t.toLowerCase())))].slice(0, 40);
  // Neighbouring words, matched as phrases: "rise time", "make install", "initial conditions".
  const pairs = [...new Set(tokens.slice(1).map((t, i) => `${tokens[i]} ${t}`.toLowerCase()))].slice(0, 20);
  // An option as typed ("-e", "-B", "--stack-auto"; "-B." ending a sentence): looked for at the start
  // of a line, where an option's own description begins ("-e Causes a chip erase ...", "--stack-auto
  // All functions ..."); a short one is searched as its entry where the library has one (retrieve.ts).
  const options = [
    ...new Set(
      raw
        .map((t) => t.replace(/[._/]+$/, ''))
        .filter((t) => /^--?\p{L}[\p{L}\p{N}]{0,2}$/u.test(t) || /^--\p{L}[\p{L}\p{N}-]*[\p{L}\p{N}]$/u.test(t)),
    ),
  ];
  // A share in per cent ("rise time between 20% and 80%") is also searched as the fraction a
  // manual may write it as ("val='0.2*vp'").
  const fractions = [...question.matchAll(/(?<![\d.])(\d{1,3}(?:\.\d+)?)\s*%/g)].map((m) =>
    String(Number((Number(m[1]) / 100).toPrecision(12))),
  );
  // A word typed in capitals ("ISR", "SOA") may be an acronym the manual spells out.
  const acronyms = [...new Set(raw.filter((t) => /^\p{Lu}{2,5}s?$/u.test(t)).map((t) => t.replace(/s$/, '')))];
  // A short form typed as a word ("sim", "caps"); not a name typed with its dot (".lib", a command).
  const abbreviated = [
    ...new Set(raw.map((t) => t.replace(/[._/-]+$/, '').toLowerCase()).filter((t) => /^\p{L}+$/u.test(t))),
  ].filter((t) => otherForms(t).length > 0);
  return {
    words: unique.filter((t) => !isCode(t)),
    codes: [
      ...new Set([...unique.filter((t) => isCode(t) && !isQuantity(t)).map((t) => t.toLowerCase()), ...fractions]),
    ],
    pairs,
    options,
    acronyms,
    abbreviated,
  };
}

/**
 * Short forms technicians type, each with the word(s) a manual writes in full ("sim" for
 * "simulation", "caps" for "capacitors"): word vectors know few of them ("config" has none, "caps"
 * is nearest to jackets), and a prefix rule over the library's words matched longer unrelated words.
 * Not a unit ("volt": a manual writes "voltage" and the unit apart), nor a word a manual
 * writes as the name it is ("hex", as in Intel Hex).
 */
const ABBREVIATIONS = new Map<string, string[]>(
  Object.entries({
    addr: ['address'],
    approx: ['approximately'],
    arg: ['argument'],
    avg: ['average'],
    buf: ['buffer'],
    calc: ['calculate', 'calculation'],
    cap: ['capacitor', 'capacitance'],
    cfg: ['configuration', 'configure'],
    clk: ['clock'],
    cmd: ['command'],
    coeff: ['coefficient'],
    config: ['configuration', 'configure'],
    conn: ['connection', 'connector'],
    ctrl: ['control'],
    dec: ['decade'],
    dir: ['directory'],
    doc: ['documentation'],
    env: ['environment'],
    err: ['error'],
    exec: ['execute', 'executable'],
    ext: ['external'],
    freq: ['frequency'],
    func: ['function'],
    fw: ['firmware'],
    gnd: ['ground'],
    info: ['information'],
    init: ['initialize', 'initialization'],
    len: ['length'],
    lib: ['library'],
    max: ['maximum'],
    mem: ['memory'],
    min: ['minimum'],
    msg: ['message'],
    num: ['number'],
    osc: ['oscillator'],
    param: ['parameter'],
    pkg: ['package'],
    prog: ['program'],
    pwr: ['power'],
    ref: ['reference'],
    reg: ['register'],
    res: ['resistor', 'resistance'],
    sim: ['simulation', 'simulator'],
    spec: ['specification'],
    src: ['source'],
    struct: ['structure'],
    sw: ['switch', 'software'],
    temp: ['temperature'],
    thresh: ['threshold'],
    tran: ['transient'],
    val: ['value'],
    var: ['variable'],
    xtal: ['crystal'],
  }),
);

/**
 * The full words of a short form ("caps": capacitor, capacitance); none for another word. Not the
 * other way round ("decade" also as "dec"): common words of a question ("error", "power",
 * "number") then widened to their short forms, and at 1,000,000 chunks the candidate query took
 * 25-40 ms more at p95 (bench/README.md, "Main after the session-28 merges").
 */
export const otherForms = (word: string): string[] =>
  ABBREVIATIONS.get(word) ?? ABBREVIATIONS.get(word.replace(/s$/, '')) ?? [];
