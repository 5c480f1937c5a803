import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';

import { remarkCitations, remarkPageImages, remarkSuggestions } from './remark-citations';

type Node = { type: string; url?: string; value?: string; children?: Node[] };

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
  it('puts the image of a figure page under the block that first cites it and the steps under that block, once', () => {
    expect(blocksOf(answer, 2, [1, 2])).toEqual([
      'paragraph',
      'list',
      'image #page-image-1',
      'paragraph',
      'image #page-image-2',
      'paragraph',
    ]);
  });

  it('shows no image for a page without a figure, nor for a number that names no source', () => {
    expect(blocksOf(answer, 2, [2])).toEqual(['paragraph', 'list', 'paragraph', 'image #page-image-2', 'paragraph']);
    expect(blocksOf('See [3].', 2, [3])).toEqual(['paragraph']);
  });

  it("puts the image after the page's rows and listing, before the next page's block", () => {
    const composed = [
      'Use the vector table: *Guide, page 50* [1]',
      '- 0 External 0 0x0003\n- 1 Timer 0 0x000b',
      '```\nvoid timer_isr (void) __interrupt (1)\n```',
      '**Guide, page 51** [2]\\\nAnother page.',
      '```\nmake\n```',
    ].join('\n\n');
    expect(blocksOf(composed, 2, [1, 2])).toEqual([
      'paragraph',
      'list',
      'code',
      'image #page-image-1',
      'paragraph',
      'code',
      'image #page-image-2',
    ]);
  });
});

/** Each paragraph's words after the citations plugin: a citation as {n}, a space no line may break at as "~". */
function citedLines(markdown: string, sources: number): string[] {
  const processor = unified().use(remarkParse).use(remarkCitations(sources));
  const words = (node: Node): string =>
    node.type === 'link'
      ? `{${node.children!.map(words).join('')}}`
      : node.type === 'break'
        ? ' / '
        : (node.value ?? node.children?.map(words).join('') ?? '');
  const tree = processor.runSync(processor.parse(markdown)) as Node;
  return tree.children!.map((block) => words(block).replaceAll('\u00a0', '~'));
}

describe('remarkCitations', () => {
  it("keeps a citation on the line of the word before it, and a number with that number's word", () => {
    expect(
      citedLines(
        [
          '`-U memtype:op:filename[:format]`: The op field specifies what operation to perform:\\\n*XP-200 Manual, page 2* [1]',
          'The fan trips on alarm A12 [2]. See [1, 2] and step 3 [1]; cited twice [1] [2].',
        ].join('\n\n'),
        2,
      ),
    ).toEqual([
      '-U memtype:op:filename[:format]: The op field specifies what operation to perform: / XP-200 Manual, page~2~{1}',
      'The fan trips on alarm A12~{2}. See~{1}{2} and step~3~{1}; cited twice~{1}~{2}.',
    ]);
  });

  it('leaves a number that names no source, and code, as written', () => {
    expect(citedLines('Wait five minutes [4]. Type `read [1]`.', 2)).toEqual(['Wait five minutes [4]. Type read [1].']);
  });
});

/** Each link the suggestions plugin makes: its address and the words shown. */
function suggestionLinksOf(markdown: string, labels: string[]): string[] {
  const processor = unified().use(remarkParse).use(remarkSuggestions(labels));
  const links: string[] = [];
  const visit = (node: Node) => {
    if (node.type === 'link') links.push(`${node.url} ${node.children!.map((c) => c.value).join('')}`);
    node.children?.forEach(visit);
  };
  visit(processor.runSync(processor.parse(markdown), markdown) as Node);
  return links;
}

describe('remarkSuggestions', () => {
  const labels = ['Fan manual, page 2 (Wiring *live* <L1>)', 'Pump guide, page 7'];
  const notFound = [
    "I couldn't find this in your manuals.",
    '**Suggestions only, these may not answer your question:** the closest pages in your manuals are',
    `- ${labels[0]}\n- ${labels[1]}`,
    'From general knowledge: check the Pump guide, page 7 first.',
  ].join('\n\n');

  it('links each list line naming a suggested page, as written, markdown characters and all', () => {
    expect(suggestionLinksOf(notFound, labels)).toEqual([
      `#suggestion-1 ${labels[0]}`,
      '#suggestion-2 Pump guide, page 7',
    ]);
  });

  it('leaves a line that only mentions a page, another list line and an answer without suggestions alone', () => {
    expect(suggestionLinksOf('- Pump guide, page 7, then the fan\n- Fan manual, page 2', labels)).toEqual([]);
    expect(suggestionLinksOf(notFound, [])).toEqual([]);
  });
});
