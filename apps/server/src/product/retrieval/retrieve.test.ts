import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createEmbedder, type EmbedLane } from './embedder.js';
import { embedNextBatch } from './indexer.js';
import { createProductEvents } from '../events.js';
import { questionTerms, termCount } from './passage-text.js';
import {
  bestSentenceShare,
  bringEntriesForward,
  bringOpeningsForward,
  answersQuestion,
  relevanceScore,
  RELEVANCE_THRESHOLD,
  fencedShare,
  fuseScores,
  holdBackOtherManuals,
  isListing,
  isRowOfNames,
  lexicalScore,
  manualEvidence,
  namesShare,
  OPENING_CHUNKS,
  openingEntry,
  opensWithAnswer,
  optionLinePattern,
  PAGE_MATES,
  RANK_WEIGHTS,
  sectionOpenings,
  termFrequencies,
  type LexicalFeatures,
} from './rank.js';
import { americanSpelling, findCandidates, oneEditAway, retrievePassages, swapped, termWeight } from './retrieve.js';
import { otherForms, searchTerms } from './search-terms.js';

/** A database of its own holding `manuals`, each page ([manual id, text]) a chunk on page i + 1. */
async function libraryOf(
  manuals: { id: string; title: string; type?: 'manual' | 'system_planner' }[],
  pages: [string, string][],
): Promise<pg.Pool> {
  const { pool: lib } = await createTestDatabase();
  for (const { id, title, type = 'manual' } of manuals)
    await lib.query('INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES ($1, $2, $3, $4, $5)', [
      id,
      title,
      `/f/${id}.pdf`,
      `${id}.pdf`,
      type,
    ]);
  for (const [i, [manual, text]] of pages.entries())
    await lib.query(
      'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
      [`${manual}_${i}`, manual, text, i, i + 1],
    );
  return lib;
}

/** A database of its own holding one manual, `id`, with a chunk a page. */
const oneManual = (id: string, title: string, pages: string[]) =>
  libraryOf(
    [{ id, title }],
    pages.map((text) => [id, text]),
  );

/** The page of the first passage a viewer is given for the question. */
const firstPage = async (pool: pg.Pool, question: string) =>
  (await retrievePassages({ pool }, { question, role: 'viewer' })).passages[0]?.page;

/** The coverage of a page's candidate for a question, 0 when the page is no candidate. */
const coverageOn = async (pool: pg.Pool, question: string, page: number) =>
  (await findCandidates({ pool }, { question, role: 'viewer' })).find((c) => c.row.page_number === page)?.coverage ?? 0;

// A generated library: 24 manuals of 8 pages, each page about one subject, with the boilerplate
// real manuals repeat on every page. Questions whose answers sit on known pages, asked the way
// a technician would, including part numbers and error codes.
const equipment = [
  'rooftop air conditioner',
  'walk-in freezer',
  'ice machine',
  'gas boiler',
  'heat pump',
  'centrifugal pump',
  'air compressor',
  'diesel generator',
  'chiller',
  'cooling tower',
  'water heater',
  'exhaust fan',
  'dishwasher',
  'combi oven',
  'fryer',
  'espresso machine',
  'forklift charger',
  'solar inverter',
  'UPS system',
  'elevator drive',
  'fire pump',
  'sump pump',
  'pressure washer',
  'hydraulic lift',
];
const subjects = [
  (e: string, n: number) =>
    `Installation. Mount the ${e} on a level surface with ${n + 10} cm clearance on every side. Connect the supply according to the wiring diagram.`,
  (e: string, n: number) =>
    `Error code E${((n * 7) % 90) + 10}: the ${e} detected a low refrigerant or low pressure condition. Check the pressure switch, then reset the controller by holding MODE for five seconds.`,
  (e: string, n: number) =>
    `Error code F${((n * 11) % 90) + 10}: the motor of the ${e} overheated. Let it cool for thirty minutes and clean the air intake before restarting.`,
  (e: string, n: number) =>
    `Replacement parts. Door gasket part number PN-${4400 + n}-G. Filter cartridge part number PN-${5500 + n}-F. Order spares from your distributor quoting the serial plate.`,
  (e: string) =>
    `Cleaning. Descale the ${e} every three months with an approved descaler. Rinse twice and run an empty cycle.`,
  (e: string) =>
    `Noise and vibration. A rattling ${e} usually has a loose mounting bolt or a worn bearing. Tighten the bolts to 25 Nm and listen again.`,
  (e: string) =>
    `Electrical safety. Measure insulation resistance of the ${e} with a megger; readings below 1 megohm mean the winding is damp or damaged.`,
  (e: string, n: number) =>
    `Warranty and service intervals. The ${e} carries a ${(n % 3) + 2} year warranty when serviced annually by a certified technician.`,
];
const boilerplate =
  'WARNING: disconnect power before servicing. Only qualified personnel may open the cabinet. Keep this manual with the unit.';

const questions: { q: string; manual: number; page: number }[] = [];
equipment.forEach((e, n) => {
  questions.push({ q: `what does error E${((n * 7) % 90) + 10} mean on the ${e}?`, manual: n, page: 2 });
  questions.push({ q: `I need the filter cartridge PN-${5500 + n}-F`, manual: n, page: 4 });
  questions.push({ q: `${e} shows F${((n * 11) % 90) + 10}, what now?`, manual: n, page: 3 });
  if (n % 3 === 0) questions.push({ q: `how often should I descale the ${e}`, manual: n, page: 5 });
  if (n % 4 === 0) questions.push({ q: `the ${e} rattles and vibrates a lot`, manual: n, page: 6 });
});

let pool: pg.Pool;

beforeAll(async () => {
  ({ pool } = await createTestDatabase());
  for (const [n, e] of equipment.entries()) {
    const type = n === 23 ? 'system_planner' : 'manual';
    await pool.query(
      'INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES ($1, $2, $3, $4, $5)',
      [`m${n}`, `${e} service manual`, `/files/m${n}.pdf`, `m${n}.pdf`, type],
    );
    for (const [i, subject] of subjects.entries()) {
      await pool.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
        [`m${n}_${i}`, `m${n}`, `${e.toUpperCase()} MANUAL, page ${i + 1}. ${subject(e, n)} ${boilerplate}`, i, i + 1],
      );
    }
  }
});

/** A candidate's lexical features when it holds every word of the question and nothing more. */
const PLAIN_FEATURES = {
  coverage: 1,
  wordCoverage: 1,
  heading: 0,
  title: 0,
  proximity: 0,
  phrases: 0,
  optionLines: 0,
  settingLine: false,
  bestSentence: 0,
};

/** The manuals whose candidates for the question a viewer asks carry the flag (findCandidates' features). */
const manualsFlagged = async (pool: pg.Pool, question: string, flag: 'namedManual' | 'soleManual') =>
  new Set(
    (await findCandidates({ pool }, { question, role: 'viewer' }))
      .filter((c) => c.features[flag])
      .map((c) => c.row.manual_id),
  );

/** A candidate for fuseScores that holds every word of the question: these features on top, this cosine. */
const fusedCandidate = (row: string, semantic: number, features: Partial<LexicalFeatures> = {}, lexical = 1) => ({
  row,
  features: { ...PLAIN_FEATURES, ...features },
  lexical,
  coverage: 1,
  semantic,
  listing: false,
});

describe('retrievePassages', () => {
  it('finds the page that answers the question in the top 5 for at least 90% of questions (hit@5)', async () => {
    let hits = 0;
    const misses: string[] = [];
    for (const { q, manual, page } of questions) {
      const { passages } = await retrievePassages({ pool }, { question: q, role: 'admin', limit: 5 });
      if (passages.some((p) => p.manualId === `m${manual}` && p.page === page)) hits++;
      else misses.push(`${q} -> ${passages.map((p) => `${p.manualId}:${p.page}`).join(' ')}`);
    }
    const hitAt5 = hits / questions.length;
    console.log(`retrieval hit@5 = ${hitAt5.toFixed(3)} over ${questions.length} questions`);
    expect(questions.length).toBeGreaterThanOrEqual(70);
    expect(hitAt5, misses.join('\n')).toBeGreaterThanOrEqual(0.9);
  });

  it('ranks an exact part number or error code first', async () => {
    const [first] = (await retrievePassages({ pool }, { question: 'PN-4407-G', role: 'viewer' })).passages;
    expect(first).toMatchObject({ manualId: 'm7', page: 4, title: 'diesel generator service manual' });
  });

  it('never returns a passage or a suggestion of a manual the caller may not read', async () => {
    const questions = [
      `what does error E${((23 * 7) % 90) + 10} mean on the hydraulic lift?`,
      'hydraulic lift',
      'PN-5523-F',
    ];
    for (const question of questions) {
      for (const role of ['viewer', 'manager', null] as const) {
        const { passages, suggestions } = await retrievePassages({ pool }, { question, role, limit: 50 });
        expect(
          [...passages, ...suggestions].some((p) => p.manualId === 'm23' || /hydraulic/i.test(p.title + p.text)),
        ).toBe(false);
      }
      const privileged = await retrievePassages({ pool }, { question, role: 'technician' });
      expect(privileged.passages[0]?.manualId).toBe('m23');
    }
  });

  it('says when nothing in the library is relevant, offering the closest pages as suggestions', async () => {
    for (const question of ['how do I tile a bathroom floor?', 'what torque for the wheel nuts of a tractor trailer']) {
      const result = await retrievePassages({ pool }, { question, role: 'admin' });
      expect(result.relevant, question).toBe(false);
      expect(result.passages).toEqual([]);
    }
    const { relevant, suggestions } = await retrievePassages(
      { pool },
      { question: 'how do I tile the floor around the ice machine', role: 'admin' },
    );
    expect(relevant).toBe(false);
    expect(suggestions[0]?.manualId).toBe('m2');
  });

  it('splits questions into words and identifiers', () => {
    expect(searchTerms('Pump shows E42 after replacing PN-4471-B, why?')).toMatchObject({
      words: ['pump', 'shows', 'after', 'replacing', 'why'],
      codes: ['e42', 'pn-4471-b'],
    });
    expect(searchTerms('what does gpio_set_level or setTimeout return')).toEqual({
      words: ['what', 'does', 'or', 'return'],
      codes: ['gpio_set_level', 'settimeout'],
      pairs: ['what does', 'does gpio_set_level', 'gpio_set_level or', 'or settimeout', 'settimeout return'],
      options: [],
      acronyms: [],
      abbreviated: [],
    });
  });

  it('reads dot names, long options and file names as identifiers, paths whole, words joined by a slash apart, and a negation as no term', () => {
    expect(searchTerms("ngspice won't read my .spiceinit.")).toMatchObject({
      words: ['ngspice', 'not', 'read', 'my'],
      codes: ['spiceinit'],
    });
    // Typed without its apostrophe, as on a phone; "cant" is a word of its own.
    expect(searchTerms('the chip doesnt change, avrdude wont verify, cant of the board')).toMatchObject({
      words: ['the', 'chip', 'not', 'change', 'avrdude', 'verify', 'cant', 'of', 'board'],
    });
    expect(searchTerms('does --stack-auto change avrdude.conf or test.c')).toMatchObject({
      words: ['does', 'change', 'or'],
      codes: ['stack-auto', 'avrdude.conf', 'test.c'],
    });
    expect(searchTerms('cut the push/pop overhead, /dev/parport or /dev/ttyS0')).toMatchObject({
      words: ['cut', 'the', 'push', 'pop', 'overhead', 'or'],
      codes: ['/dev/parport', '/dev/ttys0'],
    });
    // A file type or an option letter is as common as the word or letter: a word.
    // It is also kept as typed, to be looked for where its description begins.
    expect(searchTerms('make a .lib with -B')).toMatchObject({
      words: ['make', 'a', 'lib', 'with', 'b'],
      codes: [],
      options: ['-B'],
    });
  });
});

describe('identifiers', () => {
  it('puts the chunk that names a function, register or error code exactly first, above chunks of common words', async () => {
    const lib = await oneManual('fw', 'Firmware reference', [
      'Setting a pin level. Call the GPIO driver to set the output level of a pin; the level is 0 or 1. Set the level after configuring the pin as output.',
      'gpio_set_level(gpio_num, level) sets the output level of a pad. Returns ESP_ERR_INVALID_ARG when the pin number is wrong.',
      'Register TIMG_T0CONFIG_REG configures timer 0 of the group: the divider, auto-reload and the alarm enable bit.',
      'Timer configuration. Configure the timer group with a divider and enable the alarm and auto-reload as needed for the timer.',
      'Error 0x105 ESP_ERR_NOT_FOUND: the requested resource was not found. Check the partition table.',
      'Errors. Each error has a code; the requested resource, partition or pin may be wrong. Check the table of errors.',
    ]);
    const first = async (question: string) =>
      (await retrievePassages({ pool: lib }, { question, role: 'viewer' })).passages[0]?.page;
    expect(await first('how do I set the level of a pin, gpio_set_level?')).toBe(2);
    expect(await first('what does TIMG_T0CONFIG_REG configure for the timer?')).toBe(3);
    expect(await first('I get error 0x105 when the resource is not found')).toBe(5);
  });
});

describe('search text', () => {
  it('finds a name in angle brackets, at the end of a path or as a part of a file name', async () => {
    const lib = await oneManual('av', 'Programmer', [
      'Options. -p <partno> names the device; -b <baudrate> overrides the serial rate.',
      'At start the configuration is read from /usr/local/etc/programmer.conf unless another is given.',
      'The device is named by its part number; the serial rate comes from the configuration.',
      'Postprocessing: packihx sourcefile.ihx >sourcefile.hex sorts the records by address, e.g. 1.8k left whole.',
    ]);
    const first = async (question: string) =>
      (await retrievePassages({ pool: lib }, { question, role: 'viewer' })).passages[0]?.page;
    expect(await first('what is partno')).toBe(1);
    expect(await first('where is programmer.conf')).toBe(2);
    // A file name's parts are words too: "ihx" finds sourcefile.ihx, "conf" programmer.conf.
    const holding = async (word: string) =>
      (
        await lib.query<{ page_number: number }>(
          "SELECT page_number FROM manual_content WHERE search @@ to_tsquery('simple', $1) ORDER BY 1",
          [word],
        )
      ).rows.map((r) => r.page_number);
    expect(await holding('ihx')).toEqual([4]);
    expect(await holding('conf')).toEqual([2]);
    expect(await holding('programmer.conf')).toEqual([2]);
    expect(await holding('8k')).toEqual([]);
    expect(await holding('g')).toEqual([]);
  });
});

describe('short options', () => {
  it('puts the chunk where the option begins a line, its description, above chunks that only name its letter', async () => {
    const lib = await oneManual('pr', 'Programmer', [
      'Status flags. Flag e is set when a write ends; reading the flag clears it.',
      'Option flags\n-e Causes a chip erase to be executed before the memory is written.\n-E exitspec sets the lines at exit.',
    ]);
    expect(await firstPage(lib, 'what does the -e flag do')).toBe(2);
  });

  // 1,600 chunks name the letter ("Appendix B"), stored before the entries: in table order they
  // filled the candidates a question's letter selects, and the entries were never read.
  const withAppendix = async () => {
    const lib = await libraryOf(
      [
        { id: 'pr', title: 'Programmer' },
        { id: 'sp', title: 'Plant planner', type: 'system_planner' },
      ],
      [],
    );
    await lib.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
       SELECT 'pr_' || i, 'pr', 'Appendix B Troubleshooting, note ' || i || ': see table B and appendix K.', i, i
       FROM generate_series(1, 1600) i`,
    );
    const pages: [string, string, number][] = [
      ['pr', 'Option descriptions\n-b baudrate\n  Override the RS-232 connection baud rate.', 2001],
      ['pr', 'Options, continued\n-B bitclock\n  Specify the bit clock period of the JTAG interface.', 2002],
      ['pr', 'Press q at the prompt to leave the terminal and close the port.', 2003],
      ['sp', 'Planner options\n-K keyfile\n  Unlock the plant controller with the key in keyfile.', 2004],
    ];
    for (const [manual, text, page] of pages)
      await lib.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $4)',
        [`${manual}_${page}`, manual, text, page],
      );
    return lib;
  };
  const pagesFor = async (lib: pg.Pool, question: string, role: 'admin' | 'technician' | 'manager' | 'viewer') =>
    (await retrievePassages({ pool: lib }, { question, role })).passages.map((p) => p.page);

  it('searches a short option as the entry where a line begins with it, case as printed, not as its letter', async () => {
    const lib = await withAppendix();
    expect(await pagesFor(lib, 'what does -B do', 'viewer')).toEqual([2002]);
    expect(await pagesFor(lib, 'what does -b do?', 'viewer')).toEqual([2001]);
    // At a sentence's end too.
    expect((await pagesFor(lib, 'the bit clock option is -B.', 'viewer'))[0]).toBe(2002);
  });

  it('searches an option no line begins with as its letter, as before', async () => {
    const lib = await withAppendix();
    const asOption = await pagesFor(lib, 'what does -q do', 'viewer');
    expect(asOption[0]).toBe(2003);
    expect(asOption).toEqual(await pagesFor(lib, 'what does q do', 'viewer'));
  });

  it("never gives a manual's option entry to a caller who may not read it", async () => {
    const lib = await withAppendix();
    for (const role of ['viewer', 'manager'] as const)
      expect(await pagesFor(lib, 'what does -K do', role)).not.toContain(2004);
    for (const role of ['technician', 'admin'] as const)
      expect((await pagesFor(lib, 'what does -K do', role))[0]).toBe(2004);
  });

  it('puts the chunk where a long option as typed begins a line above chunks that mention it ("--stack-auto")', async () => {
    const lib = await oneManual('cc', 'Compiler', [
      'Stack. With --stack-auto the stack holds the parameters and locals: what a reentrant function does needs it.',
      'Other options\n--stack-auto All functions in the source file will be compiled as reentrant.\n--xstack Uses a pseudo stack.',
    ]);
    expect(searchTerms('what does --stack-auto do?').options).toEqual(['--stack-auto']);
    expect(await firstPage(lib, 'what does --stack-auto do')).toBe(2);
  });

  it("takes a line that begins with the option, a value attached or not, and no other option's line", () => {
    const m = optionLinePattern('-m');
    expect(m.test('Processor options\n  -m Generate code for the port')).toBe(true);
    expect(m.test('-mstm8 Generate code for the STM8')).toBe(true);
    expect(m.test('Use -m with the port name')).toBe(false);
    expect(m.test('-M Generate dependencies')).toBe(false);
  });
});

describe('compounds', () => {
  it('finds two neighbouring words of the question where the manual writes them as one ("baud rate", "baudrate")', async () => {
    const lib = await oneManual('pr', 'Programmer', [
      'The baud of a line and the rate of its errors are logged at each start.',
      'Options. -b baudrate sets the speed of the serial line to this rate.',
    ]);
    expect(await firstPage(lib, 'change the baud rate')).toBe(2);
  });

  it('finds a word of the question where the manual writes it as two ("timestep", "time step")', async () => {
    const lib = await oneManual('sim', 'Simulator', [
      'Options. TSTEP sets the timestep.',
      'Switches. A switch can make the time step too small.',
      'Relays. A relay is a switch worked by a coil.',
    ]);
    const candidates = await findCandidates({ pool: lib }, { question: 'the timestep of a switch', role: 'viewer' });
    // The second page holds every term of the question: "timestep" as its two words.
    expect(candidates.find((c) => c.row.page_number === 2)?.coverage).toBeCloseTo(1);
    expect(fuseScores(candidates)[0]?.row.page_number).toBe(2);
  });
});

describe('acronyms', () => {
  it('searches an acronym typed in capitals as the words a readable manual spells it out with', async () => {
    expect(searchTerms('my ISRs and the SOA of a BJT, in a Pump').acronyms).toEqual(['ISR', 'SOA', 'BJT']);
    const lib = await libraryOf(
      [{ id: 'cc', title: 'Compiler' }],
      [
        ['cc', 'Interrupts. An interrupt service routine (ISR) runs when the hardware raises an interrupt.'],
        ['cc', 'The ISR table. Each ISR has a slot in the vector table; a new ISR changes its slot.'],
        [
          'cc',
          'If an interrupt service routine changes a variable, declare it volatile, or main never sees the new value.',
        ],
      ],
    );
    const question = 'variable changed in my ISR but main never sees the new value';
    const candidates = await findCandidates({ pool: lib }, { question, role: 'viewer' });
    // The answer holds every term of the question: "ISR" as the words it stands for.
    expect(candidates.find((c) => c.row.page_number === 3)?.coverage).toBeCloseTo(1);
    expect(await firstPage(lib, question)).toBe(3);
  });

  it('takes no definition from a manual the caller may not read', async () => {
    const lib = await libraryOf(
      [
        { id: 'cc', title: 'Compiler' },
        { id: 'sp', title: 'Plant planner', type: 'system_planner' },
      ],
      [
        ['sp', 'Interrupts. An interrupt service routine (ISR) runs when the hardware raises an interrupt.'],
        ['cc', 'The ISR table. Each ISR has a slot in the vector table; a new ISR changes its slot.'],
        [
          'cc',
          'If an interrupt service routine changes a variable, declare it volatile, or main never sees the new value.',
        ],
      ],
    );
    const question = 'variable changed in my ISR but main never sees the new value';
    const coverage = async (role: 'viewer' | 'admin') =>
      (await findCandidates({ pool: lib }, { question, role })).find((c) => c.row.page_number === 3)?.coverage ?? 0;
    expect(await coverage('admin')).toBeCloseTo(1); // the planner's definition spells "ISR" out
    expect(await coverage('viewer')).toBeLessThan(0.99); // a viewer's question is not read through it
  });

  it('reads no definition of a word typed in capitals that is common in the library', async () => {
    const lib = await libraryOf(
      [{ id: 'cc', title: 'Compiler' }],
      [
        ['cc', 'Interrupts. An interrupt service routine (ISR) runs when the hardware raises an interrupt.'],
        [
          'cc',
          'If an interrupt service routine changes a variable, declare it volatile, or main never sees the new value.',
        ],
      ],
    );
    const question = 'variable changed in my ISR but main never sees the new value';
    const coverage = async () =>
      (await findCandidates({ pool: lib }, { question, role: 'viewer' })).find((c) => c.row.page_number === 2)
        ?.coverage ?? 0;
    expect(await coverage()).toBeCloseTo(1);
    // "isr" on more pages than a rare term is (2,000): the first of them are no place to look for what it stands for.
    await lib.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
       SELECT 'log_' || g, 'cc', 'ISR ' || g || ' logged.', g, g FROM generate_series(3, 2003) g`,
    );
    expect(await coverage()).toBeLessThan(0.99);
  });
});

describe('setting lines', () => {
  it("puts the chunk where a line sets the question's word as a parameter above one that names it in passing", async () => {
    const lib = await oneManual('sim', 'Simulator', [
      'Transient options\nMAXORD=x sets the highest order of the integration method; the Gear method allows 2 to 6.',
      'METHOD=name sets the numerical integration method. Possible names are Gear or trapezoidal.',
    ]);
    expect(await firstPage(lib, 'switch the integration method to gear')).toBe(2);
  });
});

describe('the best sentence', () => {
  it('scores higher the chunk where one sentence holds what is asked than one that spreads the same words', () => {
    const terms = questionTerms('disable one specific warning by its number');
    const described = '--disable-warning <nnnn> Disable the specific warning with number <nnnn>. See the list.';
    const spread = 'Each warning has a number. Some options are specific to a port. Disable the port to save power.';
    expect(bestSentenceShare(described, terms)).toBe(1);
    expect(bestSentenceShare(spread, terms)).toBe(0.5);
    expect(lexicalScore({ ...PLAIN_FEATURES, bestSentence: bestSentenceShare(described, terms) })).toBeGreaterThan(
      lexicalScore({ ...PLAIN_FEATURES, bestSentence: bestSentenceShare(spread, terms) }),
    );
  });
});

describe('every term', () => {
  it('puts the chunk that holds every term of the question above one that lacks a word but is a little closer in meaning', () => {
    const features = {
      wordCoverage: 1,
      heading: 0,
      title: 0,
      proximity: 0.005,
      phrases: 0,
      optionLines: 0,
      settingLine: false,
      bestSentence: 0,
    };
    const candidate = (row: string, coverage: number, semantic: number) => ({
      row,
      features: { ...features, coverage },
      lexical: lexicalScore({ ...features, coverage }),
      coverage,
      semantic,
      listing: false,
    });
    // "laptop parallel port: lpt1 or lpt3?": the parallel ports' page holds every term, the serial ports' lacks "parallel".
    const ranked = fuseScores([candidate('Serial ports', 0.9, 0.62), candidate('Parallel ports', 1, 0.5)]);
    expect(ranked.map((c) => c.row)).toEqual(['Parallel ports', 'Serial ports']);
  });
});

describe('per cent', () => {
  it('searches a share in per cent as its fraction too', async () => {
    expect(searchTerms('rise time between 20% and 80 %').codes).toEqual(['20', '80', '0.2', '0.8']);
    const lib = await oneManual('sim', 'Simulator', [
      'Rise time. The rise time of a step response is measured between two levels of the output swing.',
      "Measurement examples\n.meas tran slew trig v(out) val='0.2*vp' rise=1 targ v(out) val='0.8*vp' rise=1",
    ]);
    expect(await firstPage(lib, 'measure the rise time between 20% and 80%')).toBe(2);
  });
});

describe('values with a unit', () => {
  it('does not search a value the technician typed with its unit: a page holding it holds it as an example', async () => {
    expect(searchTerms('1kHz fundamental at 3.3V, 100MEG, 8k, 4.7uF on the stk600 with an 8051').codes).toEqual([
      'stk600',
      '8051',
    ]);
    const lib = await oneManual('sim', 'Simulator', [
      'Distortion analysis. Example: .disto dec 10 1kHz 100MEG computes the small-signal distortion.',
      'Fourier analysis. The .four line gives the harmonic content of a transient output: the fundamental and each harmonic.',
    ]);
    expect(await firstPage(lib, 'harmonic distortion of my 1kHz fundamental')).toBe(2);
  });
});

describe('British spellings', () => {
  it('searches a word the library lacks as typed the British way as its American spelling', async () => {
    expect(['initialised', 'behaviour', 'analysed', 'centre', 'rise'].map(americanSpelling)).toEqual([
      'initialized',
      'behavior',
      'analyzed',
      'center',
      undefined,
    ]);
    const lib = await oneManual('cc', 'Compiler', [
      'Xdata variables at startup. The startup code copies the xdata variables from code memory.',
      'Page register. The startup code can initialize variables in xdata only where the page register is right.',
    ]);
    expect(await firstPage(lib, 'xdata variables not initialised at startup')).toBe(2);
  });
});

describe('typos', () => {
  const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
  afterAll(() => embedder.close());
  const pages = [
    'Interrupt handlers. An interrupt handler must save the registers it uses; verify the vector table.',
    'Handlers. A handler is called for every event; the handler list is kept in order.',
    'Stack. The stack grows down from the top of internal memory.',
    'Wiring. The programmer is wired to the target with six wires.',
    'Sectors. A sector of the flash is erased at once.',
    'Vectors. A vector table lists the vector of each interrupt; the vector address is fixed.',
    'Async calls. An async function returns at once.',
  ];

  it('spells a word every way one edit away: a letter dropped, added or changed, or two swapped', () => {
    const forms = oneEditAway('stak');
    expect(forms).toEqual(expect.arrayContaining(['tak', 'stack', 'stab', 'satk']));
    expect(forms).not.toContain('stak');
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('searches a word of 5 letters or more that no chunk holds as the held word one edit away', async () => {
    const lib = await oneManual('cc', 'Compiler', pages);
    expect(await firstPage(lib, 'my interupt handler')).toBe(1);
    expect(await coverageOn(lib, 'my interupt handler', 1)).toBeCloseTo(1);
    // The question is embedded as meant too: the word vectors know no typo.
    const embedded: string[] = [];
    const seeing = {
      embed: (texts: string[], lane: EmbedLane) => (embedded.push(...texts), embedder.embed(texts, lane)),
    };
    const { passages } = await retrievePassages(
      { pool: lib, embedder: seeing },
      { question: 'my Interupt handler', role: 'viewer' },
    );
    expect(passages[0]?.page).toBe(1);
    expect(embedded).toContain('my interrupt handler');
  });

  it('never changes a word the library holds, a word of 4 letters, a first letter, an identifier, or a word the vectors know', async () => {
    const lib = await oneManual('cc', 'Compiler', pages);
    // "sector" is held: not "vector", which more chunks hold.
    expect(await coverageOn(lib, 'sector erased', 6)).toBeLessThan(0.8);
    expect(await firstPage(lib, 'sector erased')).toBe(5);
    // "stak" has many held words one edit away.
    expect(await coverageOn(lib, 'stak grows', 3)).toBeLessThan(0.8);
    // A typo keeps its first letter: a tool the vectors lack ("rsync") is not "async".
    expect(await coverageOn(lib, 'rsync function', 7)).toBeLessThan(0.8);
    // An identifier is as typed: "vectr2" is not "vector".
    expect(await coverageOn(lib, 'vectr2 address', 6)).toBeLessThan(0.8);
    // "wiped" is a word (not "wired"), though the library alone would read it as one.
    const wired = async (deps: Parameters<typeof findCandidates>[0]) =>
      (await findCandidates(deps, { question: 'programmer wiped', role: 'viewer' })).find(
        (c) => c.row.page_number === 4,
      )?.coverage ?? 0;
    expect(await wired({ pool: lib })).toBeCloseTo(1);
    expect(await wired({ pool: lib, embedder })).toBeLessThan(0.9);
  });

  const shortPages = [
    'Chip erase. The chip erase command clears the flash.',
    'Baud rate. The baud rate of the serial line is set with -b.',
    'Bad signature. A bad signature means a wrong part.',
    'Bad cable. A bad cable gives bad readings.',
    'Fuse bits. The fuse bits set the clock source.',
    'Else. Else the tool waits for the target.',
    'Erase cycles. Each erase wears the flash.',
    ...[1, 2, 3, 4, 5].map((n) => `Stack ${n}. The stack of task ${n} is kept apart.`),
    'Stay. The values stay set.',
  ];

  it('tells two neighbours swapped from other edits', () => {
    expect(swapped('buad', 'baud')).toBe(true);
    expect(swapped('cihp', 'chip')).toBe(true);
    expect(swapped('buad', 'bad')).toBe(false);
    expect(swapped('stak', 'stack')).toBe(false);
    expect(swapped('abcd', 'badc')).toBe(false);
  });

  it('reads a word of 3 or 4 letters as two neighbours swapped, or as the one word held far more than any other', async () => {
    const lib = await oneManual('pg', 'Programmer', shortPages);
    // A swap the library holds, though another word one edit away is in more chunks ("bad").
    expect(await coverageOn(lib, 'buad rate', 2)).toBeCloseTo(1);
    expect(await coverageOn(lib, 'cihp erase', 1)).toBeCloseTo(1);
    expect(await firstPage(lib, 'set the fues bits')).toBe(5);
    // "stak": stack in 5 chunks, stay in 1.
    expect(await coverageOn(lib, 'stak task', 8)).toBeCloseTo(1);
    // "erse": else and erase are held alike, so it is neither.
    expect(await coverageOn(lib, 'erse tool', 6)).toBeLessThan(0.8);
    expect(await coverageOn(lib, 'erse flash', 7)).toBeLessThan(0.8);
  });

  it('prefers a word the vectors know to a spelling more chunks hold that they do not ("priorty")', async () => {
    const lib = await oneManual('cc', 'Compiler', [
      'Interrupt priority. Each vector has a priority level.',
      ...[1, 2, 3].map((n) => `Step ${n}. Prior to step ${n + 1}, save the file.`),
    ]);
    const known = await findCandidates({ pool: lib, embedder }, { question: 'priorty level', role: 'viewer' });
    expect(known.find((c) => c.row.page_number === 1)?.coverage).toBeCloseTo(1);
    expect(known.find((c) => c.row.page_number === 2)?.coverage ?? 0).toBeLessThan(0.5);
    // Without the vectors, the library alone decides: "priorly" is prior, held in more chunks.
    expect(await coverageOn(lib, 'priorty', 2)).toBeCloseTo(1);
  });

  it('reads a held stem the vectors do not know as the word they know one edit away ("programer": programmer)', async () => {
    const lib = await oneManual('pg', 'Programmer', [
      'Not responding. When the programmer is not responding, check its cable.',
      ...[1, 2, 3].map((n) => `Program ${n}. The program is written to flash at step ${n}; not all of it.`),
    ]);
    const first = async (deps: Parameters<typeof findCandidates>[0], page: number) =>
      (await findCandidates(deps, { question: 'programer not responding', role: 'viewer' })).find(
        (c) => c.row.page_number === page,
      )?.coverage ?? 0;
    expect(await first({ pool: lib, embedder }, 1)).toBeCloseTo(1);
    expect(await first({ pool: lib, embedder }, 2)).toBeLessThan(0.1);
    // Only when the vectors can say: the library alone holds 'program' for it.
    expect(await first({ pool: lib }, 2)).toBeGreaterThan(0.3);
    // A word held as typed is the library's own, though the vectors do not know it: "printf" is not print.
    const io = await oneManual('cc', 'Compiler', [
      'Output. The printf function formats its output.',
      ...[1, 2, 3].map((n) => `Listing ${n}. Print the listing ${n} output.`),
    ]);
    expect(await coverageOn(io, 'printf', 2)).toBe(0);
    const printf = await findCandidates({ pool: io, embedder }, { question: 'printf', role: 'viewer' });
    expect(printf.find((c) => c.row.page_number === 2)?.coverage ?? 0).toBe(0);
    // A word the vectors know is never read as another: "programs" stays the program's.
    expect(
      (await findCandidates({ pool: lib, embedder }, { question: 'programs written', role: 'viewer' })).find(
        (c) => c.row.page_number === 2,
      )?.coverage,
    ).toBeCloseTo(1);
  });

  it('searches a pair with a typo as the phrase of the word meant', async () => {
    const lib = await oneManual('sp', 'Simulator', [
      'Noise analysis. The noise analysis computes the output noise.',
      'Analysis of a circuit. Each analysis has its own noise floor.',
    ]);
    const phrases = async (question: string) =>
      (await findCandidates({ pool: lib, embedder }, { question, role: 'viewer' })).find((c) => c.row.page_number === 1)
        ?.features.phrases;
    expect(await phrases('nosie analysis')).toBeGreaterThan(0);
    expect(await phrases('nosie analysis')).toBe(await phrases('noise analysis'));
  });

  it("finds no passage of a manual the caller may not read through a typo's word", async () => {
    for (const role of ['viewer', 'manager', null] as const) {
      const { passages, suggestions } = await retrievePassages(
        { pool },
        { question: 'hydraulik lift', role, limit: 50 },
      );
      expect([...passages, ...suggestions].some((p) => p.manualId === 'm23')).toBe(false);
    }
    const privileged = await retrievePassages({ pool }, { question: 'hydraulik lift', role: 'technician' });
    expect(privileged.passages[0]?.manualId).toBe('m23');
  });
});

describe('short forms', () => {
  it('knows the full words of the short forms technicians type, in the plural too', () => {
    expect(['caps', 'config', 'sim', 'constructor', 'decades', 'pump'].map(otherForms)).toEqual([
      ['capacitor', 'capacitance'],
      ['configuration', 'configure'],
      ['simulation', 'simulator'],
      [],
      [],
      [],
    ]);
    // Not a name typed with its dot: ".lib" is a command, not "library".
    expect(searchTerms('two caps and a .lib in my sim per decade.').abbreviated).toEqual(['caps', 'sim']);
  });

  it('searches a short form as its full words too, and as itself', async () => {
    const lib = await oneManual('sim', 'Simulator', [
      'Status. The sim_status variable tells whether the run has ended.',
      'Stopping. A simulation stops when the time step is too small.',
      'Relays. A relay stops when its coil is off.',
    ]);
    // "sim" is held by the page that writes "simulation", and still by the one that writes "sim".
    expect(await firstPage(lib, 'my sim stops')).toBe(2);
    expect(await coverageOn(lib, 'my sim stops', 2)).toBeCloseTo(1);
    expect(await coverageOn(lib, 'sim status', 1)).toBeCloseTo(1);
  });
});

describe('switches off', () => {
  it('searches a word no chunk holds where the library names the switch that turns it off ("gcse", --nogcse)', async () => {
    const lib = await oneManual('cc', 'Compiler', [
      'Options. --nogcse disables global subexpression elimination.',
      'Functions. A large function may need more stack space.',
      'Nodes. Every node has a name.',
    ]);
    expect(await coverageOn(lib, 'no gcse elimination', 1)).toBeCloseTo(1);
    // A word of 3 letters is no feature's name: "ode" is not "node".
    expect(await coverageOn(lib, 'ode every name', 3)).toBeLessThan(0.8);
  });
});

describe('part families', () => {
  it('searches an identifier no chunk holds as the identifiers that begin with it where a letter meets a digit', async () => {
    const lib = await oneManual('prog', 'Programmer', [
      'Part ids: avr32dd14 AVR32DD14, avr32dd20 AVR32DD20, pic18f452 PIC18F452.',
      'The -p option names the part by its id.',
      'Memory from 0x8000 holds the boot loader. Error e42 stops the run.',
    ]);
    // A technician names the family; the manual lists its members.
    expect(await firstPage(lib, 'the name for the AVR32DD')).toBe(1);
    expect(await coverageOn(lib, 'pic18 part id', 1)).toBeCloseTo(1);
    // A number that goes on in digits is another number, and a short code is one of its own.
    expect(await coverageOn(lib, 'boot loader at 0x800', 3)).toBeLessThan(0.8);
    expect(await coverageOn(lib, 'error e4 stops', 3)).toBeLessThan(0.8);
  });
});

describe('rows of part names', () => {
  const table = [
    'The following devices are supported by each routing card:',
    'STK600-RC008T-2 STK600-DIP ATtiny25 ATtiny45 ATtiny85',
  ].join('\n');
  const notes = 'For devices on the routing card STK600-RC008T-2, remove the AREF0 jumper to use ISP mode.';

  it('tells a row of part names from prose that names parts', () => {
    expect(isRowOfNames('STK600-RC008T-2 STK600-DIP ATtiny25 ATtiny45 ATtiny85')).toBe(true);
    expect(isRowOfNames(notes)).toBe(false);
    expect(isRowOfNames('ATtiny85')).toBe(false);
  });

  it('counts no row of part names as the best sentence: it names the parts asked about and describes nothing', () => {
    const terms = questionTerms('attiny85 on the RC008T-2 card, isp fails');
    expect(bestSentenceShare(table, terms)).toBeLessThan(bestSentenceShare(notes, terms));
  });

  it("counts a chunk's cosine for its rows of part names as for a listing", async () => {
    expect(namesShare(notes, 600)).toBe(0);
    expect(namesShare(table, 600)).toBeGreaterThan(0.4);
    const lib = await oneManual('prog', 'Programmer', [table, notes]);
    const candidates = await findCandidates({ pool: lib }, { question: 'RC008T-2 card isp', role: 'viewer' });
    expect(candidates.find((c) => c.row.page_number === 1)?.fenced).toBeGreaterThan(0.4);
    expect(candidates.find((c) => c.row.page_number === 2)?.fenced).toBe(0);
  });
});

describe('temperatures', () => {
  it('searches a temperature typed with a unit symbol as the words a manual spells it in', async () => {
    expect(searchTerms('simulate the board at 85 degC, or 3°F')).toMatchObject({
      words: ['simulate', 'the', 'board', 'at', 'degrees', 'celsius', 'or', 'fahrenheit'],
      codes: ['85', '3'],
    });
    const lib = await oneManual('sim', 'Simulator', [
      'Temperature. .TEMP sets the circuit temperature in degrees Celsius.',
      'Netlists. Each board is read from one netlist.',
    ]);
    const candidates = await findCandidates(
      { pool: lib },
      { question: 'simulate the board at 85 degC', role: 'viewer' },
    );
    expect(fuseScores(candidates)[0]?.row.page_number).toBe(1);
  });

  it('embeds the question with the temperature spelt out, as the word vectors know no unit symbol', async () => {
    const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
    const text = 'Temperature. .TEMP sets the circuit temperature in degrees Celsius.';
    const lib = await oneManual('sim', 'Simulator', [text]);
    const [vector] = await embedder.embed([text], 'index');
    await lib.query('UPDATE manual_content SET embedding = $1', [Buffer.from(vector!.buffer)]);
    const cosineTo = async (question: string) =>
      (await findCandidates({ pool: lib, embedder }, { question, role: 'viewer' }))[0]?.semantic;
    expect(await cosineTo('simulate the board at 85 degC')).toBeCloseTo(
      (await cosineTo('simulate the board at 85 degrees celsius'))!,
      6,
    );
    await embedder.close();
  });
});

describe('words the library lacks', () => {
  const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
  afterAll(() => embedder.close());

  it('searches the nearest words in meaning that the library holds instead ("wipe" for "erase")', async () => {
    const lib = await oneManual('pr', 'Programmer', [
      'Flash memory. The flash memory holds the program, written page by page; read the flash memory back to verify it.',
      'Chip erase. Before writing, erase the flash memory and the EEPROM: every cell reads 0xff afterwards.',
    ]);
    const question = 'how do I wipe the flash memory';
    const first = async (deps: Parameters<typeof retrievePassages>[0]) =>
      (await retrievePassages(deps, { question, role: 'viewer' })).passages[0]?.page;
    expect(await first({ pool: lib, embedder })).toBe(2);
    // Without the word vectors' neighbours, "wipe" is only a word the library lacks.
    expect(await first({ pool: lib, embedder: { embed: (texts, lane) => embedder.embed(texts, lane) } })).toBe(1);
  });
});

describe('parameter names', () => {
  const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
  afterAll(() => embedder.close());

  it('holds two words where the library names parameters after them with one letter before ("stop", "step": tstop, tstep), not where those are words ("clock", "cable")', async () => {
    const lib = await oneManual('sim', 'Simulator', [
      'Transient analysis. The general form is .tran tstep tstop, where tstep is the printing increment and tstop the final time.',
      'Cable clock. The cable carries the clock to the board.',
      'Breakpoints. A stop sets a breakpoint; a step runs one more time point; lock bits protect the memory.',
    ]);
    const coverage = async (question: string, page: number, deps: Parameters<typeof findCandidates>[0]) =>
      (await findCandidates(deps, { question, role: 'viewer' })).find((c) => c.row.page_number === page)?.coverage ?? 0;
    const question = 'transient analysis with 10ms stop and 1us step';
    expect(await coverage(question, 1, { pool: lib, embedder })).toBeCloseTo(1);
    // Without the word vectors, "tstop" cannot be told from a word such as "clock": not held.
    expect(await coverage(question, 1, { pool: lib })).toBeLessThan(0.8);
    // Two names with one letter that are words the vectors know ("clock", "cable") are no parameters.
    expect(await coverage('lock able board', 2, { pool: lib, embedder })).toBeLessThan(0.8);
    // One name alone ("tstop" for "stop") is as likely another thing: no set of parameters.
    expect(await coverage('transient analysis with a stop', 1, { pool: lib, embedder })).toBeLessThan(0.8);
  });
});

describe('parameter names in a sentence', () => {
  it('counts a word in a sentence that holds the parameter named after it, as the search found it', () => {
    const terms = { words: ['tran', 'stop', 'step'], codes: [] };
    expect(bestSentenceShare('.tran tstep tstop <tstart>', terms)).toBeCloseTo(1 / 3);
    const names: [string, string][] = [
      ['stop', 'tstop'],
      ['step', 'tstep'],
    ];
    expect(bestSentenceShare('.tran tstep tstop <tstart>', { ...terms, names })).toBeCloseTo(1);
  });
});

describe('titles', () => {
  it("counts a question word that only the manual's title holds", async () => {
    const { pool: lib } = await createTestDatabase();
    await lib.query(
      `INSERT INTO manuals (id, title, file_url, file_name) VALUES
       ('ice', 'Ice machine service manual', '/f/ice.pdf', 'ice.pdf'), ('zch', 'Chiller service manual', '/f/ch.pdf', 'ch.pdf')`,
    );
    // The ice machine's page is shorter (a higher proximity score) and sorts first by id: only the
    // title's "chiller" can put the chiller's page first.
    const pages = [
      ['ice_0', 'ice', 'Error code E42: clean the condenser.'],
      ['ice_1', 'ice', 'A chiller nearby is not covered by this manual.'],
      ['zch_0', 'zch', 'Error code E42: the condenser is blocked. Clean the condenser coil.'],
    ];
    for (const [i, [id, manual, text]] of pages.entries())
      await lib.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, 1)',
        [id, manual, text, i],
      );
    const { passages } = await retrievePassages({ pool: lib }, { question: 'chiller error E42', role: 'viewer' });
    expect(passages[0]?.chunkId).toBe('zch_0');
    // The title's vector is stored with the manual (migration 022): a renamed manual is matched by its new title.
    await lib.query("UPDATE manuals SET title = 'Nearby plant service manual' WHERE id = 'zch'");
    const renamed = await retrievePassages({ pool: lib }, { question: 'nearby plant error E42', role: 'viewer' });
    expect(renamed.passages[0]?.chunkId).toBe('zch_0');
  });
});

describe('a manual the question names', () => {
  const library = () =>
    libraryOf(
      [
        { id: 'zx', title: 'Zorbix compiler guide' },
        { id: 'sim', title: 'Circuit simulator guide' },
      ],
      [
        ['zx', 'Zorbix stores doubles as floats: there is no double precision.'],
        ['zx', 'The zorbix compiler accepts these options.'],
        ['zx', 'Zorbix compiler guide: installing.'],
        ['sim', 'Doubles are computed in double precision by the simulator, whatever the compiler.'],
        ['sim', 'This guide covers the circuit simulator.'],
      ],
    );

  it("marks the chunks of a manual whose title holds a word of the question that nearly only that manual's pages hold", async () => {
    const lib = await library();
    const named = (question: string) => manualsFlagged(lib, question, 'namedManual');
    expect(await named('are doubles double precision in zorbix?')).toEqual(new Set(['zx']));
    // "compiler" and "guide" are in a title, and in the other manual's pages too: they name no manual.
    expect(await named('are doubles double precision with this compiler guide?')).toEqual(new Set());
  });

  it('puts a page of the named manual above a page of another that is a little closer to the question', () => {
    const candidate = (row: string, lexical: number, semantic: number, namedManual: boolean) =>
      fusedCandidate(row, semantic, { namedManual }, lexical);
    const ranked = fuseScores([candidate('other manual', 1, 0.26, false), candidate('named manual', 0.99, 0.07, true)]);
    expect(ranked[0]?.row).toBe('named manual');
  });
});

describe('the manual that alone holds the identifiers', () => {
  it("marks the chunks of the one manual whose candidates hold the question's identifier", async () => {
    const lib = await libraryOf(
      [
        { id: 'prog', title: 'Programmer guide' },
        { id: 'cc', title: 'Compiler guide' },
      ],
      [
        ['prog', 'Write a hex file to the flash of an atmega328p: -U flash:w:main.hex:i.'],
        ['prog', 'Programmers: the usbasp and the stk500.'],
        ['cc', 'The linker writes an Intel hex file; a postprocessor packs the hex file.'],
        ['cc', 'Ports: the stk500 board is supported.'],
      ],
    );
    const sole = (question: string) => manualsFlagged(lib, question, 'soleManual');
    expect(await sole('how do I flash a hex file to an atmega328p with a usbasp')).toEqual(new Set(['prog']));
    // Both manuals' pages hold "stk500": it says nothing of which manual the question is about.
    expect(await sole('write a hex file with the stk500')).toEqual(new Set());
  });

  it('puts a page of that manual above a page of another that is a little closer to the question', () => {
    const candidate = (row: string, semantic: number, soleManual: boolean) =>
      fusedCandidate(row, semantic, { soleManual });
    const ranked = fuseScores([candidate('hex postprocessing', 0.56, false), candidate('programmer usage', 0.5, true)]);
    expect(ranked[0]?.row).toBe('programmer usage');
  });
});

describe("the manual the question's words belong to", () => {
  it('finds likelier the manual that holds the words often for its size than a large one that holds one in passing', () => {
    // "dump", "flash", "file": the programmer's 10 chunks hold flash in 6 and file in 4; the
    // simulator's 100 hold dump in 2 and file in 40, flash in none.
    const [programmer, simulator] = manualEvidence(
      [
        { held: [0, 6, 4], chunks: 10 },
        { held: [2, 0, 40], chunks: 100 },
      ],
      [
        { rows: 2, weight: 1 },
        { rows: 6, weight: 1 },
        { rows: 44, weight: 1 },
      ],
      110,
    );
    expect(programmer).toBeGreaterThan(simulator!);
    // A part the question names, in the large manual only, outweighs two words the small one holds often.
    const [small, large] = manualEvidence(
      [
        { held: [31, 41, 0], chunks: 174 },
        { held: [4, 7, 18], chunks: 538 },
      ],
      [
        { rows: 35, weight: 4 },
        { rows: 48, weight: 4 },
        { rows: 18, weight: 10 },
      ],
      2571,
    );
    expect(large).toBeGreaterThan(small!);
    // No term tells: every manual alike.
    expect(manualEvidence([{ held: [], chunks: 10 }], [], 110)).toEqual([0]);
  });

  it("holds back, once the library answers, a page of a manual that holds the question's rare words less often", async () => {
    const lib = await libraryOf(
      [
        { id: 'prog', title: 'Programmer guide' },
        { id: 'sim', title: 'Circuit simulator guide' },
      ],
      [
        ['prog', 'Read the flash memory into a file with -U flash:r:out.hex:i.'],
        ...Array.from({ length: 30 }, (_, i): [string, string] => [
          'prog',
          i % 3 ? `Part ${i}: its fuses.` : `Part ${i}: its flash has its own page size.`,
        ]),
        ['sim', 'Mdump: dump the matrix to a file. The file is written as text.'],
        ...Array.from({ length: 150 }, (_, i): [string, string] => [
          'sim',
          i % 2
            ? `Analysis ${i}: the output file holds the node voltages.`
            : i % 15
              ? `Device ${i}: its model parameters.`
              : `Device ${i}: dump its state.`,
        ]),
      ],
    );
    const question = 'dump the flash to a file';
    const candidates = await findCandidates({ pool: lib }, { question, role: 'viewer' });
    const gap = new Map(candidates.map((c) => [c.row.manual_id, c.features.otherManual]));
    expect(gap.get('prog')).toBe(0);
    expect(gap.get('sim')).toBeGreaterThan(0);
    // Fused, the simulator's page holding "dump" and "file" comes first; the relevance decision is made there.
    const fused = fuseScores(candidates);
    expect(fused[0]?.row.id).toBe('sim_31');
    expect(answersQuestion(fused)).toBe(true);
    expect(holdBackOtherManuals(fused, { ...RANK_WEIGHTS, otherManual: 0 })[0]?.row.id).toBe('sim_31');
    // Held back by the gap, the programmer's page leads.
    expect((await retrievePassages({ pool: lib }, { question, role: 'viewer' })).passages[0]?.chunkId).toBe('prog_0');
  });
});

describe('the entry that defines what is asked', () => {
  it('reads the first sentence of the option or command a chunk opens with', () => {
    expect(openingEntry('-e Causes a chip erase to be executed. This will reset the flash.')).toBe(
      '-e Causes a chip erase to be executed.',
    );
    // An entry set alone between fences, its general form and examples, then what it does.
    expect(
      openingEntry(
        '```\n.tran tstep tstop\n```\n\nExamples:\n\n```\n.tran 1ns 100ns\n```\n\ntstep is the printing increment. The final time is tstop.',
      ),
    ).toBe('.tran tstep tstop tstep is the printing increment.');
    // A chunk that starts inside another entry's text opens with none.
    expect(openingEntry('matter, does not carry out chip erase.\n\n-D Disable auto erase for flash.')).toBeUndefined();
  });

  it('marks the chunk that opens with the entry holding the whole question, not one that uses it in passing', async () => {
    const lib = await oneManual('pm', 'Programmer guide', [
      'Some bootloaders do not carry out a chip erase. -A is engaged for them.\n\n-D Disable auto erase for flash. When -U writes flash, the chip is erased first.',
      '-e Causes a chip erase to be executed. This will reset the flash and EEPROM.\n\n-F Skip the signature check.',
    ]);
    const candidates = await findCandidates({ pool: lib }, { question: 'how do I erase the chip', role: 'viewer' });
    const defining = new Map(candidates.map((c) => [c.row.page_number, c.features.definingEntry]));
    expect(defining).toEqual(
      new Map([
        [1, false],
        [2, true],
      ]),
    );
    expect(opensWithAnswer('-D Disable auto erase for flash.', questionTerms('how do I erase the chip'))).toBe(false);
  });

  it('puts the chunk that opens with the defining entry above one a little closer to the question', () => {
    const candidate = (row: string, semantic: number, definingEntry: boolean) =>
      fusedCandidate(row, semantic, { definingEntry });
    const ranked = fuseScores([candidate('-D in passing', 0.65, false), candidate('-e entry', 0.5, true)]);
    expect(ranked[0]?.row).toBe('-e entry');
  });
});

describe('pages about the subject', () => {
  it("counts the other candidates from each candidate's page", async () => {
    const lib = await oneManual('pm', 'Programmer guide', [
      'The vtarg command sets the target supply voltage of the programmer.',
      'Read the target supply voltage back with vtarg alone.',
      'The terminal also shows the target supply voltage at start.',
      'Parallel port programmers draw no supply.',
    ]);
    // The first two chunks are one page.
    await lib.query("UPDATE manual_content SET page_number = 1 WHERE id = 'pm_1'");
    const candidates = await findCandidates({ pool: lib }, { question: 'target supply voltage vtarg', role: 'viewer' });
    const mates = new Map(candidates.map((c) => [c.row.id, c.features.pageMates]));
    expect(mates.get('pm_0')).toBe(1 / PAGE_MATES);
    expect(mates.get('pm_1')).toBe(1 / PAGE_MATES);
    expect(mates.get('pm_2')).toBe(0);
  });

  it('puts a page whose other chunks hold the question above an equal page that mentions it once', () => {
    const candidate = (row: string, semantic: number, pageMates: number) =>
      fusedCandidate(row, semantic, { pageMates });
    const ranked = fuseScores([candidate('one mention', 0.51, 0), candidate('page about it', 0.5, 1)]);
    expect(ranked[0]?.row).toBe('page about it');
  });

  const terms = [
    { typed: 'switch', isCode: false, weight: 3 },
    { typed: 'flip-flop', isCode: false, weight: 1 },
    { typed: '-B', isCode: true, weight: 1 },
  ];

  it('counts a term in its forms, a word of two parts as a phrase, an option as typed', () => {
    const text = 'Switches: a switch switched. The flip-flop, not a flip flop. -B sets it; -b and a-B do not.';
    expect(terms.map((t) => termCount(text, t))).toEqual([3, 1, 1]);
  });

  it("weighs how often a chunk repeats the question's terms, saturated and for its length", () => {
    const about = 'The switch model. A switch is open or closed; the switch has a resistance in each state.';
    const passing = 'A capacitor, a resistor and a switch make the circuit of the example in this section.';
    const [many, once, none] = termFrequencies([about, passing, 'Nothing of it here at all.'], terms);
    expect(many).toBeGreaterThan(once!);
    expect(once).toBeGreaterThan(0);
    expect(none).toBe(0);
    // Saturated: three times the word counts less than three times once.
    expect(many).toBeLessThan(3 * once!);
  });

  it('puts a chunk that repeats the question above an equal one that names it once', async () => {
    const candidate = (row: string, semantic: number, frequency: number) =>
      fusedCandidate(row, semantic, { frequency });
    const ranked = fuseScores([candidate('one mention', 0.51, 0.2), candidate('about it', 0.5, 0.6)]);
    expect(ranked[0]?.row).toBe('about it');
    const lib = await oneManual('sw', 'Simulator', [
      'The switch model. A switch is open or closed; the switch has a resistance in each state.',
      'A capacitor, a resistor and a switch make the circuit of the example in this section.',
    ]);
    const found = await findCandidates({ pool: lib }, { question: 'switch', role: 'viewer' });
    const frequency = new Map(found.map((c) => [c.row.id, c.features.frequency ?? 0]));
    expect(frequency.get('sw_0')).toBeGreaterThan(frequency.get('sw_1')!);
  });
});

describe('the first page of a section', () => {
  const candidate = (row: string, semantic: number, page: number, heading = '3.1 Terminal Mode Commands') => ({
    row,
    features: PLAIN_FEATURES,
    lexical: 1,
    coverage: 1,
    semantic,
    listing: false,
    place: { manual: 'm', page, heading },
  });

  it('is the page of a section that runs on to the next, among the places given', () => {
    const place = (page: number | null, heading = 'Options', manual = 'm') => ({ manual, page, heading });
    expect(
      sectionOpenings([place(36), place(37), place(38), place(50, 'Other'), place(9, 'Options', 'n'), place(10)]),
    ).toEqual([true, false, false, false, false, false]);
    expect(sectionOpenings([place(4, ''), place(5, ''), place(null), undefined])).toEqual([false, false, false, false]);
    // The option entry a page goes on with is no section of its own: page 20 opens the section page 21 goes on with.
    expect(sectionOpenings([place(20), place(21, 'Options › -U memtype:op:filename[:format]')])).toEqual([true, false]);
  });

  it('comes before the next page of its section when both are among the best', () => {
    const fused = fuseScores([candidate('varef, next page', 0.55, 37), candidate('vtarg, first page', 0.5, 36)]);
    expect(fused[0]?.row).toBe('varef, next page');
    const ranked = bringOpeningsForward(fused);
    expect(ranked[0]?.row).toBe('vtarg, first page');
  });

  it('does not come forward when the next page is not among the best, nor from another section', () => {
    const others = Array.from({ length: OPENING_CHUNKS }, (_, i) => candidate(`other ${i}`, 0.6, 100 + 2 * i, `S${i}`));
    const ranked = bringOpeningsForward(
      fuseScores([candidate('first page', 0.5, 36), ...others, candidate('next page', 0.3, 37)]),
    );
    expect(ranked.map((c) => c.row).indexOf('first page')).toBe(OPENING_CHUNKS);
    const apart = bringOpeningsForward(
      fuseScores([candidate('this section', 0.55, 37), candidate('another section', 0.5, 36, 'Other')]),
    );
    expect(apart[0]?.row).toBe('this section');
  });
});

describe('whether the library answers', () => {
  // A candidate as answersQuestion reads it: its manual, and nothing shown unless given.
  const page = (
    manual: string,
    c: { coverage: number; semantic: number; word: number; best?: number; lacking?: number },
  ) => ({
    coverage: c.coverage,
    semantic: c.semantic,
    features: { wordCoverage: c.word, bestSentence: c.best ?? 0, lacking: c.lacking ?? 0 },
    place: { manual },
  });

  it('answers from the best of the first three candidates, not only the first', () => {
    // "flash a hex file to an atmega328p with a usbasp": a compiler's page on hex files first, close in
    // meaning with few of the words; the programmer's usage page, holding most of them, second.
    const close = page('cc', { coverage: 0.21, semantic: 0.65, word: 0.37, best: 0.1 });
    const usage = page('ft', { coverage: 0.58, semantic: 0.49, word: 0.25, best: 0.1 });
    expect(answersQuestion([close, usage])).toBe(true);
    expect(answersQuestion([close, close, close, usage])).toBe(false);
    expect(answersQuestion([])).toBe(false);
  });

  it("makes up for a technician's filler with the pages agreeing on one manual and an option's entry", () => {
    // "tired of adding -c usbasp every single time, can I make it the default programmer somewhere":
    // words no manual holds ("tired") leave each page a quarter of the question.
    const filler = { coverage: 0.26, semantic: 0.66, word: 0.26, best: 0.2, lacking: 0.19 };
    const agreeing = Array.from({ length: 5 }, () => page('ft', filler));
    expect(answersQuestion(agreeing)).toBe(false);
    const entry = { ...agreeing[0]!, features: { ...agreeing[0]!.features, optionEntry: true } };
    expect(answersQuestion([entry, ...agreeing.slice(1)])).toBe(true);
    // The same entry among pages of every manual, as a question about something else brings them, shows less.
    const scattered = ['ft', 'cc', 'sim', 'cc', 'sim'].map((m, i) => (i === 0 ? entry : page(m, filler)));
    expect(relevanceScore(scattered)).toBeLessThan(relevanceScore([entry, ...agreeing.slice(1)]));
  });

  it('refuses a question whose best pages hold a third of it, scattered over the manuals, with words no manual holds', () => {
    // "3-phase motor runs backwards, swap which leads": a simulator's page and a programmer's, a third of the words each.
    const ranked = [
      page('sim', { coverage: 0.24, semantic: 0.41, word: 0.3, best: 0.12, lacking: 0.26 }),
      page('ft', { coverage: 0.26, semantic: 0.39, word: 0.33, best: 0.12, lacking: 0.26 }),
      page('sim', { coverage: 0.2, semantic: 0.49, word: 0.26, best: 0.12, lacking: 0.26 }),
    ];
    expect(relevanceScore(ranked)).toBeLessThan(RELEVANCE_THRESHOLD);
    // Most of its terms on one page answers it, whatever else it brings.
    expect(
      answersQuestion([page('sim', { coverage: 0.75, semantic: 0.41, word: 0.6, best: 0.3, lacking: 0.26 })]),
    ).toBe(true);
  });
});

describe("a short option's entry in the manual of the tool the question names", () => {
  const library = () =>
    libraryOf(
      [
        { id: 'ft', title: 'Flashtool user manual' },
        { id: 'cc', title: 'Compiler guide' },
      ],
      [
        [
          'ft',
          'Option descriptions\n-o logfile\n  Write every message of the session to logfile instead of the terminal.\n-P port\n  Use port to reach the programmer: a serial device, or net:host:port for one behind a network server.',
        ],
        ['ft', 'Flashtool lists the programmers it knows at start, the stk500 among them.'],
        [
          'ft',
          'Troubleshooting. When flashtool cannot open the port, check the cable and the permissions of the device.',
        ],
        ['cc', 'Options\n-x  Compile the files that follow as assembler source.\n-c  Compile only, do not link.'],
        ['cc', 'The compiler writes a log of each build, and its serial output goes to the terminal.'],
      ],
    );
  const answer = (lib: pg.Pool, question: string) => retrievePassages({ pool: lib }, { question, role: 'viewer' });

  it("answers from the option's entry though the question brings the technician's own file name and words no manual holds", async () => {
    const lib = await library();
    const question = 'flashtool -o out.log, what lands in that file';
    // Its words are few of any page's: without the entry it would be refused.
    const candidates = await findCandidates({ pool: lib }, { question, role: 'viewer' });
    expect(candidates.find((c) => c.features.optionEntry)).toMatchObject({ row: { manual_id: 'ft', page_number: 1 } });
    expect(answersQuestion(candidates.map((c) => ({ ...c, features: { ...c.features, optionEntry: false } })))).toBe(
      false,
    );
    const { relevant, passages } = await answer(lib, question);
    expect(relevant).toBe(true);
    expect(passages[0]).toMatchObject({ manualId: 'ft', page: 1 });
    // The tool named by the one identifier only its manual holds.
    const sole = await answer(lib, 'the stk500 sits on a moxa serial server in the cabinet, can I point -P at its IP');
    expect(sole.relevant).toBe(true);
    expect(sole.passages[0]).toMatchObject({ manualId: 'ft', page: 1 });
  });

  it("refuses another tool's option that shares the letter, and an option no line begins with", async () => {
    const lib = await library();
    // The compiler's -x entry and the programmer's -o entry, for tools the library does not document.
    for (const question of ['tar -x out.tgz, what lands in that folder', 'gzip -o out.log, what lands in that file'])
      expect((await answer(lib, question)).relevant, question).toBe(false);
    // The tool named, but the option is no entry of its manual.
    expect((await answer(lib, 'flashtool -z out.log, what lands in that file')).relevant).toBe(false);
  });
});

describe('lacking', () => {
  it('is the share of the question held by words no chunk holds, 0 when the library holds them all', async () => {
    const [held] = await findCandidates({ pool }, { question: 'descale the gas boiler', role: 'admin' });
    expect(held?.features.lacking).toBe(0);
    const [lacking] = await findCandidates({ pool }, { question: 'descale the gas boiler chainsaw', role: 'admin' });
    expect(lacking?.features.lacking).toBeGreaterThan(0.1);
  });
});

describe('proximity', () => {
  it('is the cover density of all the terms in a chunk that holds them all, and 0 in one that lacks one', async () => {
    const question = 'descale the gas boiler';
    const candidates = await findCandidates({ pool }, { question, role: 'admin' });
    const { rows } = await pool.query<{ id: string; rank: number }>(
      "SELECT id, ts_rank_cd(search, plainto_tsquery('english', $1), 1) AS rank FROM manual_content WHERE id = ANY($2)",
      [question, candidates.map((c) => c.row.id)],
    );
    const rank = new Map(rows.map((r) => [r.id, r.rank]));
    expect(candidates.find((c) => c.row.id === 'm3_4')?.features.proximity).toBeGreaterThan(0);
    expect(candidates.filter((c) => c.features.proximity === 0).length).toBeGreaterThan(0);
    for (const c of candidates) expect(c.features.proximity, c.row.id).toBeCloseTo(rank.get(c.row.id)!, 6);
  });
});

describe('common words', () => {
  // Every word of the question in over 1,500 chunks: candidates are the chunks with every word and,
  // only when those are too few, the chunks with two of the three rarest (read in table order).
  const library = async (pages: { manual: string; title: string; heading: string; text: string; count: number }[]) => {
    const { pool: lib } = await createTestDatabase();
    for (const { manual, title, heading, text, count } of pages) {
      await lib.query('INSERT INTO manuals (id, title, file_url, file_name) VALUES ($1, $2, $3, $4)', [
        manual,
        title,
        `/f/${manual}.pdf`,
        `${manual}.pdf`,
      ]);
      await lib.query(
        `INSERT INTO manual_content (id, manual_id, extracted_text, heading, chunk_index, page_number)
         SELECT $1 || '_' || i, $1, $2 || ' (note ' || i || ')', $3, i, i + 1 FROM generate_series(0, $4 - 1) i`,
        [manual, text, heading, count],
      );
    }
    return lib;
  };
  const question = 'pump motor valve';
  const spread =
    'The pump is checked first. Then read the log of the last service, the supply and the fuses, and note each reading; only then is the motor turned by hand, and after the test run the valve is closed again.';

  it('reads the chunks with two of the three words when fewer than 60 hold them all', async () => {
    const lib = await library([
      { manual: 'pm', title: 'Notes', heading: '', text: 'pump motor', count: 800 },
      { manual: 'pv', title: 'Notes', heading: '', text: 'pump valve', count: 800 },
      { manual: 'mv', title: 'Notes', heading: '', text: 'motor valve', count: 800 },
      { manual: 'all', title: 'Notes', heading: '', text: spread, count: 10 },
    ]);
    const candidates = await findCandidates({ pool: lib }, { question, role: 'viewer' });
    expect(candidates.some((c) => c.row.manual_id !== 'all')).toBe(true);
  });

  it('reads the chunks of an identifier instead when the question names one', async () => {
    const lib = await library([
      // Two of the words in the heading and the title as well: these would outrank the identifier's.
      { manual: 'pm', title: 'Notes', heading: '', text: 'pump motor', count: 800 },
      { manual: 'pv', title: 'Notes', heading: '', text: 'pump valve', count: 800 },
      { manual: 'mv', title: 'Motor valve notes', heading: 'Motor valve', text: 'motor valve', count: 800 },
      { manual: 'xj', title: 'Notes', heading: '', text: 'The XJ-9 drive: check its pump.', count: 1600 },
    ]);
    const candidates = await findCandidates({ pool: lib }, { question: `${question} XJ-9`, role: 'viewer' });
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.filter((c) => c.row.manual_id !== 'xj').map((c) => c.row.id)).toEqual([]);
  });

  it('reads no chunk for an identifier more than 2,000 chunks hold (a number typed apart from its unit)', async () => {
    const lib = await library([
      { manual: 'log', title: 'Notes', heading: '', text: 'Line 5 of the log', count: 2100 },
      { manual: 'fm', title: 'Notes', heading: '', text: 'The modulated source sets its carrier in MHz', count: 1 },
    ]);
    const question = 'which source gives a carrier at 5 MHz';
    const candidates = await findCandidates({ pool: lib }, { question, role: 'viewer' });
    expect(candidates.map((c) => c.row.manual_id)).toEqual(['fm']);
  });

  it('reads only the chunks with every word when enough hold them all', async () => {
    // Without that, the first chunks with two of the words in table order, in the heading and the
    // title as well, would outrank the chunks with all three far apart.
    const lib = await library([
      { manual: 'pm', title: 'Pump motor manual', heading: 'Pump motor', text: 'pump motor', count: 100 },
      { manual: 'mv', title: 'Notes', heading: '', text: 'motor valve', count: 100 },
      { manual: 'all', title: 'Notes', heading: '', text: spread, count: 1550 },
    ]);
    const candidates = await findCandidates({ pool: lib }, { question, role: 'viewer' });
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.filter((c) => c.row.manual_id !== 'all').map((c) => c.row.id)).toEqual([]);
  });
});

describe('reranking', () => {
  // A compressor manual whose contents page names every subject, and a planner-only page that
  // holds the question as well.
  const pages = [
    'Breaker test. Press TEST: the breaker must trip when the compressor starts, then reset it.',
    'A breaker that trips as the compressor starts up sees too much inrush current through the start capacitor: fit a soft starter.',
    'Inrush current. A compressor draws six times its running current as it starts; a soft starter and the start capacitor limit the inrush.',
    'Oil level. Check the compressor oil level through the sight glass every month.',
    'Contents\n1 Breaker trips . . . . . . . 2\n2 Compressor starts . . . . . . 3\n3 Inrush current . . . . . . . 3\n4 Oil . . . . . . . 4',
  ];
  let lib: pg.Pool;
  beforeAll(async () => {
    ({ pool: lib } = await createTestDatabase());
    await lib.query(
      `INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES
       ('cx', 'Compressor service manual', '/f/cx.pdf', 'cx.pdf', 'manual'),
       ('plan', 'Site plan', '/f/plan.pdf', 'plan.pdf', 'system_planner')`,
    );
    for (const [i, text] of pages.entries())
      await lib.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
        [`cx_${i}`, 'cx', text, i, i + 1],
      );
    await lib.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES
       ('plan_0', 'plan', 'Site plan: the breaker trips when the compressor starts; inrush current, start capacitor, soft starter.', 0, 1)`,
    );
  });

  it('ranks a contents page below the pages it lists', async () => {
    const { passages } = await retrievePassages({ pool: lib }, { question: 'breaker trips', role: 'viewer' });
    expect(passages.at(-1)?.page).toBe(5);
  });

  it('tells contents and index pages from tables of values', () => {
    expect(isListing(pages[4]!)).toBe(true);
    expect(isListing('INDEX\nheap (malloc), 58\niCode, 38, 119–122\nIDE, 35, 104\nInclude files, 41')).toBe(true);
    const table = ['Name Parameter Units Default', 'IS Saturation current A 1e-14', 'TNOM Nominal temperature C 27'];
    expect(isListing([...table, 'BF Forward beta - 100', 'NF Forward emission coefficient - 1'].join('\n'))).toBe(
      false,
    );
    expect(isListing('Appendix B: Troubleshooting 56\nProblem: the programmer cannot initialise the chip.')).toBe(
      false,
    );
  });

  it("counts a chunk's cosine for its prose alone: its listing's share counts the candidates' average", () => {
    const listing = 'Other examples:\n```\n.meas ac freq_at when v(out)=0.1\n.meas tran slew trig v(out) val=0.2\n```';
    expect(fencedShare('General form and its options, explained.')).toBe(0);
    expect(fencedShare(listing)).toBeGreaterThan(0.8);
    const candidate = (row: string, lexical: number, semantic: number) => ({
      row,
      features: PLAIN_FEATURES,
      lexical,
      coverage: 1,
      semantic,
      listing: false,
      fenced: fencedShare(row),
    });
    // The average cosine is 0.4: the listing counts 0.1 x 0.1 + 0.4 x 0.9, not its own 0.1.
    const ranked = fuseScores([
      candidate('Prose that names the measure.', 0.7, 0.5),
      candidate(listing, 1, 0.1),
      candidate('Other prose.', 0.5, 0.6),
    ]);
    expect(ranked.map((c) => c.row)).toEqual([listing, 'Prose that names the measure.', 'Other prose.']);
  });

  it('never lets a planner-only page reach a viewer, manager or anonymous caller', async () => {
    const question = 'why does the breaker trip when the compressor starts';
    for (const role of ['viewer', 'manager', null] as const) {
      const { passages, suggestions } = await retrievePassages({ pool: lib }, { question, role, limit: 50 });
      expect([...passages, ...suggestions].map((p) => p.manualId)).not.toContain('plan');
    }
    const { passages } = await retrievePassages({ pool: lib }, { question, role: 'technician', limit: 50 });
    expect(passages.map((p) => p.manualId)).toContain('plan');
  });
});

describe('the entries of a list', () => {
  it('ranks a list as close in meaning as its closest entry where that is closer, after the fusion alone', () => {
    const list = { ...fusedCandidate('list', 0.2), entrySemantic: 0.7 };
    const prose = fusedCandidate('prose', 0.5);
    const fused = fuseScores([list, prose]);
    expect(fused.map((c) => c.row)).toEqual(['prose', 'list']);
    expect(bringEntriesForward(fused).map((c) => c.row)).toEqual(['list', 'prose']);
    // An entry further than its chunk changes nothing.
    const blurred = fuseScores([{ ...fusedCandidate('list', 0.2), entrySemantic: 0.1 }, prose]);
    expect(bringEntriesForward(blurred)).toEqual(blurred);
  });

  it("finds an option by what it does, its entry past the chunk's embedded start", async () => {
    const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
    try {
      const pool = await oneManual('cc', 'Compiler guide', [
        [
          '--stack-auto All functions in the source file will be compiled as reentrant, i.e. the parameters and local variables will be allocated on the stack.',
          '',
          '--callee-saves function1[,function2] The compiler by default uses a caller saves convention for register saving across function calls, however this can cause unnecessary register pushing and popping.',
          '',
          '--debug When this option is used the compiler will generate debug information, in a file with a .cdb extension.',
          '',
          '--int-long-reent Integer (16 bit) and long (32 bit) libraries have been compiled as reentrant.',
          '',
          '--fsigned-char By default a plain char is unsigned. To set the signedness for characters to signed, use this option.',
        ].join('\n'),
        'Flags. Keep each flag in a char variable, as gcc code does.',
      ]);
      while (await embedNextBatch({ pool, embedder, events: createProductEvents(), log: () => undefined }));
      const question = 'my char comparisons act unsigned, is there a flag so plain char is signed like gcc';
      const candidates = await findCandidates({ pool, embedder }, { question, role: 'viewer' });
      const list = candidates.find((c) => c.row.page_number === 1)!;
      expect(list.entrySemantic).toBeGreaterThan(list.semantic!);
      expect(fuseScores(candidates)[0]!.row.page_number).not.toBe(1);
      const { passages } = await retrievePassages({ pool, embedder }, { question, role: 'viewer' });
      expect(passages[0]!.page).toBe(1);
    } finally {
      await embedder.close();
    }
  });
});

describe('a large library', () => {
  it('judges rarity as in a library of 1,000 to 5,000 chunks', () => {
    expect(termWeight(500, 1_000_000, false)).toBeCloseTo(termWeight(500, 5000, false), 12);
    expect(termWeight(0, 1_000_000, false)).toBeCloseTo(termWeight(0, 5000, false), 12);
    expect(termWeight(5, 200, false)).toBeCloseTo(termWeight(5, 1000, false), 12);
    expect(termWeight(500, 3000, false)).toBeLessThan(termWeight(500, 5000, false));
    expect(termWeight(5, 3000, true)).toBeCloseTo(2 * termWeight(5, 3000, false), 12);
  });

  it("weighs a word on most pages (another manual's boilerplate) by its rarity among the candidates", async () => {
    const { pool: lib } = await createTestDatabase();
    await lib.query(
      `INSERT INTO manuals (id, title, file_url, file_name) VALUES ('gen', 'Chiller manual', '/f/gen.pdf', 'gen.pdf'),
         ('cc', 'Compiler guide', '/f/cc.pdf', 'cc.pdf')`,
    );
    await lib.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
       SELECT 'gen_' || i, 'gen', 'WARNING: isolate the supply before servicing the chiller (note ' || i || ').', i, i + 1
       FROM generate_series(0, 2499) i`,
    );
    await lib.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
       SELECT 'cc_' || i, 'cc', CASE WHEN i = 0 THEN 'The linker gives a warning for each overlapping segment.'
         ELSE 'The linker places segment ' || i || ' after the code.' END, i, i + 1
       FROM generate_series(0, 19) i`,
    );
    const candidates = await findCandidates({ pool: lib }, { question: 'linker warning', role: 'viewer' });
    const coverage = (id: string) => candidates.find((c) => c.row.id === id)!.coverage;
    // In the whole library "warning" is on nearly every page and would weigh nearly nothing (0.001
    // of the coverage); among the linker's pages it is on one in twenty.
    expect(coverage('cc_0') - coverage('cc_1')).toBeGreaterThan(0.2);
    expect(candidates.some((c) => c.row.manual_id === 'gen')).toBe(false);
  });
});

describe('migration 025', () => {
  it('keeps the columns each candidate is read for in its row, for the chunks stored before it and after', async () => {
    const { pool: lib } = await createTestDatabase({ empty: true });
    await migrate(lib, { until: 24 });
    await lib.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('m', 'Pump manual', '/f/m.pdf', 'm.pdf')",
    );
    // A page of 80 words that do not compress: a search vector of ~1.7 kB, which with the text makes
    // the row longer than TOAST's threshold, as a generated page of bench/chat's library.
    const store = (n: number) =>
      lib.query(
        `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
         SELECT 'm_' || $1::int, 'm', string_agg(left(md5($1::int || '-' || i), 10), ' '), $1::int, 1 FROM generate_series(1, 80) i`,
        [n],
      );
    // The chunks whose search vector is read from the TOAST table (one TOAST chunk of its size), not from their row.
    const outOfLine = async () => {
      const { rows } = await lib.query<{ toast: string }>(
        "SELECT reltoastrelid::regclass::text AS toast FROM pg_class WHERE oid = 'manual_content'::regclass",
      );
      const { rows: out } = await lib.query<{ id: string }>(
        `SELECT c.id FROM manual_content c WHERE EXISTS (
           SELECT 1 FROM ${rows[0]!.toast} t WHERE octet_length(t.chunk_data) = pg_column_size(c.search)) ORDER BY c.id`,
      );
      return out.map((r) => r.id);
    };
    await store(0);
    expect(await outOfLine()).toEqual(['m_0']);
    await migrate(lib);
    await store(1);
    expect(await outOfLine()).toEqual([]);
    const { rows: storage } = await lib.query<{ attname: string; attstorage: string }>(
      `SELECT attname, attstorage FROM pg_attribute WHERE attrelid = 'manual_content'::regclass
         AND attname IN ('id', 'manual_id', 'heading', 'search', 'extracted_text', 'embedding') ORDER BY attname`,
    );
    // A long text and the embedding go out of line first (left to itself, a real page's id went before them).
    expect(storage.map((r) => `${r.attname} ${r.attstorage}`)).toEqual([
      'embedding x',
      'extracted_text x',
      'heading m',
      'id m',
      'manual_id m',
      'search m',
    ]);
    const { rows } = await lib.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM manual_content WHERE search @@ plainto_tsquery('simple', left(md5('1-7'), 10))",
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe('migration 027', () => {
  const recount = `SELECT coalesce(array_agg(x ORDER BY x), '{}') AS terms FROM (
      SELECT lexeme || ' ' || count(*) AS x FROM manual_content, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme
      UNION ALL SELECT ' ' || count(*) FROM manual_content) t`;
  const counted = `SELECT coalesce(array_agg(lexeme || ' ' || chunks ORDER BY lexeme || ' ' || chunks), '{}') AS terms
      FROM search_terms WHERE chunks > 0`;

  it('indexes the option entries of the chunks stored before it and after, keeping search_terms exact', async () => {
    const { pool: lib } = await createTestDatabase({ empty: true });
    await migrate(lib, { until: 26 });
    await lib.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('m', 'Programmer', '/f/m.pdf', 'm.pdf')",
    );
    const store = (id: string, text: string) =>
      lib.query(
        "INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, 'm', $2, 0, 1)",
        [id, text],
      );
    await store('old_entry', 'Options\n  -B bitclock Set the bit clock.\n-e, --erase Erase the chip.');
    await store('old_prose', 'Appendix B: use -B with a slow clock.');
    const before = await lib.query<{ search: string }>(
      "SELECT search::text FROM manual_content WHERE id = 'old_prose'",
    );
    await migrate(lib);
    await store('new_entry', '-b baudrate Override the baud rate.');
    const holding = async (lexeme: string) =>
      (
        await lib.query<{ id: string }>(
          'SELECT id FROM manual_content WHERE search @@ quote_literal($1)::tsquery ORDER BY id',
          [lexeme],
        )
      ).rows.map((r) => r.id);
    expect(await holding('-B')).toEqual(['old_entry']);
    expect(await holding('-e')).toEqual(['old_entry']);
    expect(await holding('-b')).toEqual(['new_entry']);
    // A chunk with no option line keeps its vector as it was.
    const after = await lib.query<{ search: string }>("SELECT search::text FROM manual_content WHERE id = 'old_prose'");
    expect(after.rows[0]!.search).toBe(before.rows[0]!.search);
    expect((await lib.query(counted)).rows[0].terms).toEqual((await lib.query(recount)).rows[0].terms);
    // A changed text is indexed again, and a vector written directly is set back to the text's.
    await lib.query(
      "UPDATE manual_content SET extracted_text = '-E exitspec Set the lines at exit.' WHERE id = 'old_entry'",
    );
    await lib.query("UPDATE manual_content SET search = 'x'::tsvector WHERE id = 'new_entry'");
    expect(await holding('-B')).toEqual([]);
    expect(await holding('-E')).toEqual(['old_entry']);
    expect(await holding('-b')).toEqual(['new_entry']);
    expect((await lib.query(counted)).rows[0].terms).toEqual((await lib.query(recount)).rows[0].terms);
  });

  it('indexes each option of a list one description serves (migration 028), before it and after', async () => {
    const { pool: lib } = await createTestDatabase({ empty: true });
    await migrate(lib, { until: 27 });
    await lib.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('m', 'Programmer', '/f/m.pdf', 'm.pdf')",
    );
    const store = (id: string, text: string) =>
      lib.query(
        "INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, 'm', $2, 0, 1)",
        [id, text],
      );
    await store('old_list', 'Options\n-s, -u These options used to control the obsolete safemode feature.');
    await store('old_long', '-e, --erase Erase the chip.\nUse -u, -U as you like.');
    await migrate(lib);
    await store('new_list', '  -h,-H, -? Print the usage.');
    const holding = async (lexeme: string) =>
      (
        await lib.query<{ id: string }>(
          'SELECT id FROM manual_content WHERE search @@ quote_literal($1)::tsquery ORDER BY id',
          [lexeme],
        )
      ).rows.map((r) => r.id);
    expect(await holding('-s')).toEqual(['old_list']);
    expect(await holding('-u')).toEqual(['old_list']);
    expect(await holding('-e')).toEqual(['old_long']);
    // Not a list that opens no line, nor a long option.
    expect(await holding('-U')).toEqual([]);
    expect(await holding('--erase')).toEqual([]);
    expect(await holding('-h')).toEqual(['new_list']);
    expect(await holding('-H')).toEqual(['new_list']);
    expect((await lib.query(counted)).rows[0].terms).toEqual((await lib.query(recount)).rows[0].terms);
  });
});
