import { describe, expect, it } from 'vitest';
import { chunkSections, entryOf, isHeading, sectionOf } from './chunk-sections.js';

describe('isHeading', () => {
  it('knows numbered, capitalised and Title Case headings from sentences and steps', () => {
    for (const line of [
      '3.2 Replacing the Condenser Fan',
      '8.2 BJT Models (NPN/PNP)',
      'Chapter 4 Troubleshooting',
      'TROUBLESHOOTING',
      'Replacing the Door Gasket',
      'Error Codes',
    ]) {
      expect(isHeading(line), line).toBe(true);
    }
    for (const line of [
      '1. Remove the four screws.',
      'Close the valve (V2)',
      'Check the fuse before you open the cabinet.',
      'the pump',
      'Power supply 230 V, 50 Hz:',
      '42',
      'fan',
    ]) {
      expect(isHeading(line), line).toBe(false);
    }
  });
});

describe('isHeading, continued', () => {
  it("takes a subsection's title ending in a stop and a one-word chapter, but no contents entry", () => {
    for (const line of ['2.8.4 What the make install command does.', '20.5.1.1 Invocation:', '1 Introduction']) {
      expect(isHeading(line), line).toBe(true);
    }
    for (const line of [
      'Appendix B Troubleshooting . . . . . . . . 52',
      '2.2 Programmers accepting extended parameters. . . . 19',
      '3.3 V is the supply.',
      '12 pins.',
    ]) {
      expect(isHeading(line), line).toBe(false);
    }
  });
});

describe('chunkSections', () => {
  const procedure = [
    'Replacing the Door Gasket',
    ...Array.from(
      { length: 8 },
      (_, i) => `${i + 1}. Step ${i + 1} of the procedure: loosen, lift and check the gasket seat carefully.`,
    ),
  ].join('\n');

  it('starts a chunk at a heading, keeps a procedure whole and carries the heading onto the next page', () => {
    const pages = [
      { page: 1, text: `Installation\n${'Mount the unit level on its feet. '.repeat(20)}\n${procedure}` },
      {
        page: 2,
        text: `9. Close the door and test the seal with a sheet of paper. ${'Repeat the test at each corner of the door. '.repeat(5)}\nERROR CODES\nE1 means the sensor is open.`,
      },
    ];
    const chunks = chunkSections(pages, { size: 700, overlap: 100 });
    const gasket = chunks.find((c) => c.heading === 'Replacing the Door Gasket' && c.page === 1)!;
    expect(gasket.text).toBe(procedure); // all eight steps in one chunk, though longer than 700 characters
    expect(chunks.find((c) => c.page === 2 && c.text.startsWith('9. Close'))?.heading).toBe(
      'Replacing the Door Gasket',
    );
    expect(chunks.find((c) => c.text.startsWith('ERROR CODES'))?.heading).toBe('ERROR CODES');
    expect(chunks.find((c) => c.text.startsWith('Installation'))?.heading).toBe('Installation');
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('joins short sections up to the size and splits a section far longer than it', () => {
    const text = `Fuses\nF1 is 2 A.\nRelays\nK1 switches the fan.\nLong Section Follows\n${'The compressor trips when the condenser fan is blocked. '.repeat(60)}`;
    const chunks = chunkSections([{ page: 3, text }], { size: 500, overlap: 100 });
    expect(chunks[0]).toMatchObject({ heading: 'Fuses', text: 'Fuses\nF1 is 2 A.\nRelays\nK1 switches the fan.' });
    expect(chunks[1]!.heading).toBe('Long Section Follows');
    const long = chunks.filter((c) => c.heading === 'Long Section Follows');
    expect(long.length).toBeGreaterThan(5);
    for (const chunk of long) expect(chunk.text.length).toBeLessThanOrEqual(500);
    for (const chunk of chunks) expect(text).toContain(chunk.text);
  });

  it("carries a numbered subsection's parent heading, from an earlier page too", () => {
    const pages = [
      {
        page: 1,
        text: `8.2 BJT Models (NPN/PNP)
${'The bipolar junction transistor model in ngspice is an adaptation of the integral charge model. '.repeat(3)}`,
      },
      {
        page: 2,
        text: `8.2.1 Gummel-Poon Models
${'VAF is the forward Early voltage of the transistor, in volts. '.repeat(4)}
8.3 JFET Models
The JFET model.`,
      },
    ];
    const chunks = chunkSections(pages, { size: 400, overlap: 50 });
    expect(chunks.map((c) => [c.page, c.heading])).toEqual([
      [1, '8.2 BJT Models (NPN/PNP)'],
      [2, '8.2 BJT Models (NPN/PNP) › 8.2.1 Gummel-Poon Models'],
      [2, '8.3 JFET Models'],
    ]);
  });

  it('takes no heading from a listing line or a running head, and drops the running head', () => {
    const body = 'The .meas statement measures a value after the analysis. '.repeat(4);
    const pages = [21, 22, 23, 24].map((page) => ({
      page,
      // Printed numbers lag the pages by 4; odd pages' heads name the section the page ends in.
      text: `${page % 2 ? `15.5. SAFE OPERATING AREA ${page - 4}` : `${page - 4} CHAPTER 15. ANALYSES`}\n${page === 21 ? '15.4 Measurements\n' : ''}${body}\n\`\`\`\n+ <RISE=# | RISE=LAST>\n.ENDS NAND\n\`\`\``,
    }));
    const chunks = chunkSections(pages, { size: 1000, overlap: 100 });
    expect(chunks.map((c) => c.heading)).toEqual([
      '15.4 Measurements',
      '15.4 Measurements',
      '15.4 Measurements',
      '15.4 Measurements',
    ]);
    for (const chunk of chunks) expect(chunk.text).not.toMatch(/SAFE OPERATING|CHAPTER 15/);
  });

  it('drops running heads set in capitals with a numbered section or chapter, and takes no heading or parent from them', () => {
    const body = 'The library routines are compiled for each memory model. '.repeat(5);
    const pages = [
      { page: 10, text: `3.14. LIBRARY ROUTINES CHAPTER 3. USING SDCC\n3.14 Library Routines\n${body}\n9` },
      { page: 11, text: `3.14. LIBRARY ROUTINES CHAPTER 3. USING SDCC\n${body}\n3.14.3 Math functions\n${body}\n10` },
      { page: 12, text: `3.15. MEMORY MODELS CHAPTER 3. USING SDCC\n${body}\n11` },
    ];
    const chunks = chunkSections(pages, { size: 1000, overlap: 100 });
    expect(chunks.map((c) => [c.page, c.heading])).toEqual([
      [10, '3.14 Library Routines'],
      [11, '3.14 Library Routines'],
      [11, '3.14 Library Routines › 3.14.3 Math functions'],
      [12, '3.14 Library Routines › 3.14.3 Math functions'],
    ]);
    for (const chunk of chunks) expect(chunk.text).not.toMatch(/CHAPTER 3/);
  });

  it("gives a heading line joined to the next section that section's heading", () => {
    const text = `15.3 Analyses\n15.3.1 .AC: Small-Signal AC Analysis\n${'dec stands for decade variation. '.repeat(10)}`;
    expect(chunkSections([{ page: 1, text }]).map((c) => c.heading)).toEqual([
      '15.3 Analyses › 15.3.1 .AC: Small-Signal AC Analysis',
    ]);
  });

  it("takes no heading from a line met on 3 pages or more, such as a table's header", () => {
    const table = 'Name Parameter Units Default Example\nTNOM parameter measurement temperature °C 27 50';
    const pages = [
      { page: 1, text: `3.3.1 Resistors\n${'A resistor model gives the sheet resistance. '.repeat(5)}\n${table}` },
      { page: 2, text: `3.3.2 Capacitors\n${'A capacitor model gives the junction area. '.repeat(5)}\n${table}` },
      { page: 3, text: `3.3.3 Inductors\n${'An inductor model gives the inductance. '.repeat(5)}\n${table}` },
    ];
    expect(chunkSections(pages).map((c) => c.heading)).toEqual([
      '3.3.1 Resistors',
      '3.3.2 Capacitors',
      '3.3.3 Inductors',
    ]);
  });

  it("gives a chunk that goes on with an option's entry, on the next page or in the next chunk, the entry's head", () => {
    // avrdude's -U entry as the extractor sets it: the option alone in a listing of one line, its memory types on the next page.
    const pages = [
      {
        page: 20,
        text: `2.1 Option Descriptions\n-t Tells AVRDUDE to enter the interactive terminal mode.\n\n\`\`\`\n-U memtype:op:filename[:format]\n\`\`\`\n\nPerform a memory operation. ${'Multiple -U options can be given. '.repeat(4)}`,
      },
      {
        page: 21,
        text: `${'hfuse The high fuse byte.\nlfuse The low fuse byte.\n'.repeat(12)}The op field specifies what operation to perform:\nr read the specified device memory and write to the specified file`,
      },
      {
        page: 22,
        text: `m immediate mode; byte values on the command line.\n\n-v Enable verbose output. ${'More -v options increase verbosity level. '.repeat(4)}`,
      },
    ];
    const chunks = chunkSections(pages, { size: 400, overlap: 60 });
    const entry = '2.1 Option Descriptions › -U memtype:op:filename[:format]';
    expect(chunks.find((c) => c.page === 20)!.heading).toBe('2.1 Option Descriptions');
    const next = chunks.filter((c) => c.page === 21);
    expect(next.length).toBeGreaterThan(1); // the page's second chunk goes on with the entry too
    for (const chunk of next) expect(chunk.heading).toBe(entry);
    expect(chunks.find((c) => c.page === 22)!.heading).toBe(entry);
    expect(entryOf(entry)).toBe('-U memtype:op:filename[:format]');
    expect(sectionOf(entry)).toBe('2.1 Option Descriptions');
  });

  it('takes the entry a split chunk starts in, and none after a new section or from a line of prose', () => {
    const entries = [
      '--code-loc <Value> The start location of the code segment.',
      '--stack-loc <Value> The start of the stack.',
    ];
    const text = `3.3.5 Linker Options\n${entries.map((e) => `${e} ${'The value entered can be in hexadecimal or decimal format. '.repeat(6)}`).join('\n\n')}`;
    const pages = [
      { page: 37, text },
      {
        page: 38,
        text: `${'It is placed in internal ram. '.repeat(3)}\n3.3.6 MCS51 Options\n${'--model-large and -D__SDCC_PIC16XXXX and respectively. '.repeat(3)}\n${'Generate code for the large model. '.repeat(12)}`,
      },
    ];
    const chunks = chunkSections(pages, { size: 300, overlap: 50 });
    const headings = chunks.map((c) => [c.page, c.heading.replace('3.3.5 Linker Options', '…'), c.text.slice(0, 12)]);
    expect(headings[0]).toEqual([37, '…', '3.3.5 Linker']);
    // Every later chunk of page 37 carries the entry it starts in, or none when it opens an entry itself.
    for (const [page, heading, start] of headings.filter(([page]) => page === 37).slice(1)) {
      const opens = String(start).startsWith('--');
      expect(heading, `${page} ${start}`).toMatch(opens ? /^…$/ : /^… › --(code|stack)-loc <Value>$/);
    }
    expect(headings.filter(([page]) => page === 37).map(([, heading]) => heading)).toEqual(
      expect.arrayContaining(['… › --code-loc <Value>', '… › --stack-loc <Value>']),
    );
    expect(headings.find(([page]) => page === 38)).toEqual([38, '… › --stack-loc <Value>', 'It is placed']);
    // "--model-large and ..." runs on in lower case: prose, no entry's head.
    for (const chunk of chunks.filter((c) => c.heading.includes('3.3.6'))) expect(entryOf(chunk.heading)).toBe('');
  });
});
