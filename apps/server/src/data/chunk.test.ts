import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, splitPage } from './chunk.js';

const sentence = 'The compressor trips when the condenser fan is blocked. ';

describe('chunkText', () => {
  it('keeps a short page whole and numbers chunks across pages', () => {
    const chunks = chunkText([
      { page: 1, text: 'Short page.' },
      { page: 2, text: '   ' },
      { page: 3, text: sentence.repeat(40) },
    ]);
    expect(chunks[0]).toEqual({ page: 1, index: 0, text: 'Short page.' });
    expect(chunks.slice(1).every((c) => c.page === 3)).toBe(true);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('ends chunks at sentence ends and starts the next one inside the overlap', () => {
    const text = sentence.repeat(60);
    const chunks = chunkText([{ page: 1, text }], { size: 500, overlap: 100 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.endsWith('blocked.')).toBe(true);
    for (const chunk of chunks.slice(1)) expect(chunk.text).toMatch(/^[A-Za-z]/);
  });

  it('prefers a paragraph break to a sentence end', () => {
    const text = `${'a'.repeat(600)}.\n\n${'b'.repeat(300)}. ${'c'.repeat(300)}`;
    const [first] = chunkText([{ page: 1, text }], { size: 1000, overlap: 150 });
    expect(first?.text).toBe(`${'a'.repeat(600)}.`);
  });

  it('cuts a word longer than the size', () => {
    const chunks = chunkText([{ page: 4, text: 'x'.repeat(2500) }], { size: 1000, overlap: 100 });
    expect(chunks.map((c) => c.text.length)).toEqual([1000, 1000, 700]);
  });

  it('refuses options that cannot make progress', () => {
    expect(() => chunkText([], { size: 0 })).toThrow(RangeError);
    expect(() => chunkText([], { size: 100, overlap: 50 })).toThrow(RangeError);
  });
});

// Text made of words, spaces, newlines and punctuation, in the proportions of real manuals.
const arbText = fc
  .array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.string({
          unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzé0123456789'),
          minLength: 1,
          maxLength: 14,
        }),
      },
      { weight: 4, arbitrary: fc.constantFrom(' ', ' ', '  ', '\n', '\n\n', '. ', '? ', ', ', '\t') },
    ),
    { maxLength: 600 },
  )
  .map((parts) => parts.join(''));
const arbOptions = fc.integer({ min: 2, max: 400 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    overlap: fc.integer({ min: 0, max: Math.ceil(size / 2) - 1 }),
  }),
);

describe('splitPage properties', () => {
  it('covers every non-space character, within the size, overlapping by at most `overlap`', () => {
    fc.assert(
      fc.property(arbText, arbOptions, (text, { size, overlap }) => {
        const ranges = splitPage(text, size, overlap);
        const covered = new Uint8Array(text.length);
        let previous: { start: number; end: number } | undefined;
        for (const range of ranges) {
          expect(range.end - range.start).toBeLessThanOrEqual(size);
          expect(range.end).toBeGreaterThan(range.start);
          expect(text.slice(range.start, range.end).trim()).toBe(text.slice(range.start, range.end));
          if (previous) {
            expect(range.start).toBeGreaterThan(previous.start);
            expect(previous.end - range.start).toBeLessThanOrEqual(overlap);
          }
          covered.fill(1, range.start, range.end);
          previous = range;
        }
        for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i]!)) expect(covered[i], `char ${i}`).toBe(1);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves no gap between chunks other than whitespace', () => {
    fc.assert(
      fc.property(arbText, arbOptions, (text, { size, overlap }) => {
        const ranges = splitPage(text, size, overlap);
        for (let i = 1; i < ranges.length; i++)
          expect(text.slice(ranges[i - 1]!.end, ranges[i]!.start).trim()).toBe('');
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every chunk on its own page', () => {
    const arbPages = fc.array(fc.record({ page: fc.integer({ min: 1, max: 1000 }), text: arbText }), { maxLength: 6 });
    fc.assert(
      fc.property(arbPages, (pages) => {
        for (const chunk of chunkText(pages, { size: 120, overlap: 20 })) {
          const source = pages.find((p) => p.page === chunk.page && p.text.includes(chunk.text));
          expect(source).toBeDefined();
        }
      }),
      { numRuns: 200 },
    );
  });
});
