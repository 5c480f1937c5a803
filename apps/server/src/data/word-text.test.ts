// The line structure a Word manual keeps after extraction: numbered steps, table rows and
// commands in a code style, read by the real extractor from a DOCX made with the docx package.
import { AlignmentType, Document, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractor } from './extract.js';

const extractor = createExtractor({ concurrency: 1 });
afterAll(() => extractor.close());

async function makeServiceDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    styles: { paragraphStyles: [{ id: 'Code', name: 'Code', run: { font: 'Courier New' } }] },
    numbering: {
      config: [
        {
          reference: 'steps',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun('Replacing the intake filter of the CX-10.')] }),
          new Paragraph({ text: 'Switch the unit off.', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Pull the old filter out.', numbering: { reference: 'steps', level: 0 } }),
          new Paragraph({ text: 'Then reset the alarm log:' }),
          new Paragraph({ text: 'service reset --alarm A12', style: 'Code' }),
          new Paragraph({ text: '    --verbose', style: 'Code' }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Model'), cell('Filter')] }),
              new TableRow({ children: [cell('CX-10'), cell('F-220')] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(document);
}

describe('DOCX text layout', () => {
  it('numbers the steps as printed, keeps a table row per line and fences a code-style command with its indentation', async () => {
    const { pages } = await extractor.extractDocument({ bytes: await makeServiceDocx(), fileName: 'filter.docx' });
    expect(pages).toEqual([
      {
        page: 1,
        text: [
          'Replacing the intake filter of the CX-10.',
          '',
          '1. Switch the unit off.',
          '2. Pull the old filter out.',
          '',
          'Then reset the alarm log:',
          '',
          '```',
          'service reset --alarm A12',
          '    --verbose',
          '```',
          '',
          'Model | Filter',
          'CX-10 | F-220',
        ].join('\n'),
      },
    ]);
  });
});
