import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';

import { remarkCitations, remarkPageImages } from './remark-citations';

type Node = { type: string; url?: string; children?: Node[] };

/** The answer's top-level blocks after both plugins: a block's type, or the page image it shows. */
function blocksOf(markdown: string, sources: number, figures: number[]): string[] {
  const processor = unified().use(remarkParse).use(remarkCitations(sources)).use(remarkPageImages(figures));
  const tree = processor.runSync(processor.parse(markdown)) as Node;
  return tree.children!.map((block) => {
    const image = block.children?.find((child) => child.type === 'image');
    return image ? `image ${image.url}` : block.type;
  });
}

const answer = [
  'Use the following wiring. *Fan manual, page 2* [1]',
  '1. Switch off.\n2. Check the wires.',
  '**Fan manual, page 9** [2]\\\nThe contactor is wired as shown.',
  'Again: see [1] and [2].',
].join('\n\n');

describe('remarkPageImages', () => {
  it('puts the image of a figure page under the block that first cites it, once', () => {
    expect(blocksOf(answer, 2, [1, 2])).toEqual([
      'paragraph',
      'image #page-image-1',
      'list',
      'paragraph',
      'image #page-image-2',
      'paragraph',
    ]);
  });

  it('shows no image for a page without a figure, nor for a number that names no source', () => {
    expect(blocksOf(answer, 2, [2])).toEqual(['paragraph', 'list', 'paragraph', 'image #page-image-2', 'paragraph']);
    expect(blocksOf('See [3].', 2, [3])).toEqual(['paragraph']);
  });
});
