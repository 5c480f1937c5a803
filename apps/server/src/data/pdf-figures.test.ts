import { afterAll, describe, expect, it } from 'vitest';
import { createExtractor } from './extract.js';
import { makeFigurePdf, makePdf } from './fixtures/make-documents.js';
import { figureBox } from './pdf-figures.js';

const extractor = createExtractor({ concurrency: 1 });
afterAll(() => extractor.close());

const text = (n: number) => [
  `Page ${n}: condenser fan.`,
  'Check the fan wiring against the diagram before you restart.',
];

describe('figure pages, found while a PDF is read', () => {
  it('marks the page with a wiring diagram, with the region the diagram takes; not the text pages nor the page with a small logo', async () => {
    const bytes = await makeFigurePdf([text(1), text(2), text(3)], { figurePage: 2, logoPage: 3 });
    const { pages } = await extractor.extractDocument({ bytes, fileName: 'fan.pdf' });
    expect(pages.map((p) => [p.page, p.figure !== undefined])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    // The diagram's boxes span x 70 to 540 (the terminals' circles reach 543), its earth loop
    // goes down to y 340 and its boxes up to y 490; the page's text (y 780 down) and the
    // caption (text, y 310) are not part of it.
    const [left, bottom, right, top] = pages[1]!.figure!;
    expect(left).toBeCloseTo(70, -1);
    expect(bottom).toBeCloseTo(340, -1);
    expect(right).toBeCloseTo(543, -1);
    expect(top).toBeCloseTo(490, -1);
    // The drawing costs the page none of its text.
    expect(pages[1]!.text).toContain('Check the fan wiring against the diagram before you restart.');
  });

  it('marks no page of a text-only PDF', async () => {
    const { pages } = await extractor.extractDocument({ bytes: await makePdf([text(1), text(2)]), fileName: 'a.pdf' });
    expect(pages.some((p) => p.figure)).toBe(false);
  });
});

describe('figureBox', () => {
  const OPS = { save: 10, restore: 11, transform: 12, paintImageXObject: 85, constructPath: 91 };
  const page = 595 * 842;
  const image = (scale: number) => ({
    fnArray: [10, 12, 85, 11],
    argsArray: [null, [scale, 0, 0, scale, 50, 50], ['img'], null],
  });

  it('takes an image through the transform it is drawn with: a photo is a figure, where it is drawn; an icon is not', () => {
    expect(figureBox(image(300), OPS, page)).toEqual([50, 50, 350, 350]);
    expect(figureBox(image(24), OPS, page)).toBeNull();
  });

  it('takes many paths over a part of the page for a drawing, bounded by their extents, and a rule or two for none', () => {
    const path = (x: number, y: number) => [0, [null], [x, y, x + 40, y + 30]];
    const grid = Array.from({ length: 12 }, (_, i) => path(60 + (i % 4) * 120, 300 + Math.floor(i / 4) * 80));
    expect(figureBox({ fnArray: grid.map(() => 91), argsArray: grid }, OPS, page)).toEqual([60, 300, 460, 490]);
    const rules = [
      [0, [null], [50, 800, 545, 801]],
      [0, [null], [50, 40, 545, 41]],
    ];
    expect(figureBox({ fnArray: [91, 91], argsArray: rules }, OPS, page)).toBeNull();
    // Many paths in one small corner (a ruled box around a note's icon) are not a figure either.
    const corner = Array.from({ length: 12 }, (_, i) => path(50 + i, 50 + i));
    expect(figureBox({ fnArray: corner.map(() => 91), argsArray: corner }, OPS, page)).toBeNull();
  });

  it('leaves the paths of a page out of the region of its photo when they are no drawing (a rule under the header)', () => {
    const photo = image(300);
    const withRule = {
      fnArray: [...photo.fnArray, 91],
      argsArray: [...photo.argsArray, [0, [null], [50, 800, 545, 801]]],
    };
    expect(figureBox(withRule, OPS, page)).toEqual([50, 50, 350, 350]);
  });
});
