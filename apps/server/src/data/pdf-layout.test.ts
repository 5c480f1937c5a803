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
  line('The intake filter of the compressor clogs after about five hundred hours of running in a dusty', body, 10, 50, 12);
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

describe('PDF text layout', () => {
  it('joins a wrapped paragraph, keeps steps and table rows as lines and fences monospaced commands with their indentation', async () => {
    const { pages } = await extractor.extractDocument({ bytes: await makeServicePagePdf(), fileName: 'filter.pdf' });
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text).toBe([
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
    ].join('\n'));
  });
});
