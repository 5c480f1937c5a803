// The line structure a PDF's text keeps after extraction, read by the real pdf.js from a PDF laid
// out the way manuals are: wrapped paragraphs, numbered steps, a command in a monospaced font.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractor } from './extract.js';

const extractor = createExtractor({ concurrency: 1 });
afterAll(() => extractor.close());

async function makeServicePagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const body = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  const line = (text: string, font = body, size = 10, x = 50, after = 12) => {
    page.drawText(text, { x, y, size, font });
    y -= after;
  };
  line('Replacing the intake filter', bold, 14, 50, 24);
  // A paragraph wrapped at the column's right edge: the lines fill the column.
  line(
    'The intake filter of the compressor clogs after about five hundred hours of running in a dusty',
    body,
    10,
    50,
    12,
  );
  line('plant room, and a clogged filter starves the unit of air so that it overheats and trips on', body, 10, 50, 12);
  line('alarm A12 before it reaches its set point.', body, 10, 50, 20);
  line('1. Switch the unit off and lock out the supply.');
  line('2. Unclip the filter cover and pull the old filter out.');
  line('3. Push the new filter in until it clicks.', body, 10, 50, 20);
  line('Then reset the alarm log from the service console:', body, 10, 50, 20);
  line('service reset --alarm A12', mono, 10, 60, 12);
  line('service status', mono, 10, 60, 12);
  line('--verbose', mono, 10, 84, 20);
  line('Model      Filter      Hours', body, 10, 50, 12);
  line('CX-10      F-220       500', body, 10, 50, 12);
  return Buffer.from(await pdf.save());
}

// A LaTeX `listings` block: every character in a column 7 wide (Courier's glyphs are 6), and a
// "." or "(" centred in a box of its own, which leaves a gap of 2.5 before the next character:
// enough for pdf.js to put a space there. A real space is an empty column.
async function makeListingPagePdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const body = await pdf.embedFont(StandardFonts.Helvetica);
  const mono = await pdf.embedFont(StandardFonts.Courier);
  const page = pdf.addPage([595, 842]);
  const listingLine = (text: string, y: number) => {
    let x = 60;
    for (const char of text) {
      if (char === '|') x += 1.5;
      else if (char !== ' ') page.drawText(char, { x, y, size: 10, font: mono });
      if (char !== '|') x += 7;
    }
  };
  page.drawText('General form:', { x: 50, y: 760, size: 10, font: body });
  listingLine('.|ac dec 10 1|K 100|MEG', 740);
  listingLine('.|ic v(|nodnum|)=|val', 728);
  page.drawText('Set', { x: 50, y: 708, size: 10, font: body });
  page.drawText('uic', { x: 70, y: 708, size: 10, font: mono });
  page.drawText('on the', { x: 92, y: 708, size: 10, font: body });
  page.drawText('.tran', { x: 125, y: 708, size: 10, font: mono });
  page.drawText('line, or type:', { x: 158, y: 708, size: 10, font: body });
  page.drawText('set uic on .tran', { x: 60, y: 688, size: 10, font: mono });
  return Buffer.from(await pdf.save());
}

describe('PDF text layout', () => {
  it('joins a wrapped paragraph, keeps steps and table rows as lines and fences monospaced commands with their indentation', async () => {
    const { pages } = await extractor.extractDocument({ bytes: await makeServicePagePdf(), fileName: 'filter.pdf' });
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text).toBe(
      [
        'Replacing the intake filter',
        '',
        'The intake filter of the compressor clogs after about five hundred hours of running in a dusty plant room, and a clogged filter starves the unit of air so that it overheats and trips on alarm A12 before it reaches its set point.',
        '',
        '1. Switch the unit off and lock out the supply.',
        '2. Unclip the filter cover and pull the old filter out.',
        '3. Push the new filter in until it clicks.',
        '',
        'Then reset the alarm log from the service console:',
        '',
        '```',
        'service reset --alarm A12',
        'service status',
        '    --verbose',
        '```',
        '',
        'Model Filter Hours',
        'CX-10 F-220 500',
      ].join('\n'),
    );
  });

  it("takes out the spaces pdf.js reads into a spaced-out listing's columns, and keeps the real ones", async () => {
    const { pages } = await extractor.extractDocument({ bytes: await makeListingPagePdf(), fileName: 'listing.pdf' });
    expect(pages[0]!.text).toBe(
      [
        'General form:',
        '',
        '```',
        '.ac dec 10 1K 100MEG',
        '.ic v(nodnum)=val',
        '```',
        '',
        'Set uic on the .tran line, or type:',
        '',
        '```',
        'set uic on .tran',
        '```',
      ].join('\n'),
    );
  });
});
