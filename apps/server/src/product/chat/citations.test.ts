// Citations a model writes, filtered as the answer streams; and a page stitched from its chunks.
import { describe, expect, it } from 'vitest';
import type { AiTextPart } from '../../ai/provider.js';
import { keepKnownCitations, withKnownCitations } from './citations.js';
import { stitchChunks } from './whole-page.js';

async function streamed(pieces: string[], count: number): Promise<string> {
  async function* parts(): AsyncIterable<AiTextPart> {
    for (const delta of pieces) yield { type: 'text-delta', delta };
  }
  let text = '';
  for await (const part of withKnownCitations(parts(), count)) if (part.type === 'text-delta') text += part.delta;
  return text;
}

describe('citations of excerpts', () => {
  it('keeps [n] for the excerpts given and drops the others, with their space', () => {
    expect(keepKnownCitations('Prime it [1]. Seal [2, 7]. Bearing [7]. Nut [0].', 2)).toBe(
      'Prime it [1]. Seal [2]. Bearing. Nut.',
    );
  });

  it('leaves array indexes and code alone, also while streaming in pieces', async () => {
    const text = 'Set a[9] first [3].\n```\nx = [9]\n```\nDone [1].';
    for (const size of [1, 2, 3, 7, 50]) {
      const pieces = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(await streamed(pieces, 2)).toBe('Set a[9] first.\n```\nx = [9]\n```\nDone [1].');
    }
  });
});

describe('stitchChunks', () => {
  it("joins a page's chunks without the text a chunk repeats from the one before", () => {
    const page =
      'Fault F28: no ignition. Check that the gas isolation valve is open and that the electrode gap is 3 to 4 mm.';
    expect(stitchChunks([page.slice(0, 70), page.slice(40)])).toBe(page);
    expect(stitchChunks(['First section.', 'Second section.'])).toBe('First section.\n\nSecond section.');
  });
});
