// A remark plugin: "[2]" or "[1, 3]" in an answer's text becomes links to those sources. Code,
// links and numbers that name no source are left as written.

type Node = {
  type: string;
  value?: string;
  url?: string;
  children?: Node[];
  position?: { start: { offset?: number }; end: { offset?: number } };
};

const citation = /\[(\d{1,2}(?:\s*,\s*\d{1,2})*)\]/g;

/** The in-answer address of source n (1-based); ChatMarkdown renders it as a citation. */
export const citationHref = (n: number) => `#source-${n}`;
export const citationNumber = (href: string | undefined) => Number(/^#source-(\d{1,2})$/.exec(href ?? '')?.[1] ?? 0);

function split(text: string, count: number): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  for (const match of text.matchAll(citation)) {
    const numbers = match[1]!.split(',').map((n) => Number(n.trim()));
    if (!numbers.every((n) => n >= 1 && n <= count)) continue;
    if (match.index > last) nodes.push({ type: 'text', value: text.slice(last, match.index) });
    for (const n of numbers)
      nodes.push({ type: 'link', url: citationHref(n), children: [{ type: 'text', value: String(n) }] });
    last = match.index + match[0].length;
  }
  if (last === 0) return [{ type: 'text', value: text }];
  if (last < text.length) nodes.push({ type: 'text', value: text.slice(last) });
  return nodes;
}

const NO_BREAK = '\u00a0';

/** A text's last word kept with the word before it when it is a number ("page 2", "alarm 12"). */
const numberKept = (text: string) => text.replace(/(\S)[ \t]+(\d+)(\s*)$/, `$1${NO_BREAK}$2$3`);

/** The last text inside an inline node ("*Manual, page 2*"'s words), if it ends in one. */
function lastText(node: Node | undefined): Node | undefined {
  if (node?.type === 'text') return node;
  return node?.children ? lastText(node.children.at(-1)) : undefined;
}

/**
 * A citation stays on the line of the word before it, and a number with its word (with ChatMarkdown's
 * Citation, which no line may break before): on a phone the pill wrapped alone to the next line
 * ("..., page 2" / "1") and, above a list, read as the list's first number.
 */
function keepWithWordBefore(nodes: Node[]) {
  nodes.forEach((node, i) => {
    const space = nodes[i - 1];
    if (node.type !== 'link' || !citationNumber(node.url) || space?.type !== 'text' || !/\s$/.test(space.value!))
      return;
    space.value = space.value!.replace(/\s+$/, NO_BREAK);
    const words = space.value.trim() ? space : lastText(nodes[i - 2]);
    if (words) words.value = numberKept(words.value!);
  });
}

function visit(node: Node, count: number) {
  if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
  node.children = node.children.flatMap((child) =>
    child.type === 'text' && child.value ? split(child.value, count) : (visit(child, count), [child]),
  );
  keepWithWordBefore(node.children);
}

/** The plugin for an answer with `count` sources. */
export function remarkCitations(count: number) {
  return () => (tree: Node) => visit(tree, count);
}

/** The in-answer address of the image of source n's page; ChatMarkdown renders it as a PageThumbnail. */
export const pageImageHref = (n: number) => `#page-image-${n}`;
export const pageImageNumber = (src: string | undefined) => Number(/^#page-image-(\d{1,2})$/.exec(src ?? '')?.[1] ?? 0);

function citedIn(node: Node, found: number[] = []): number[] {
  const n = node.type === 'link' ? citationNumber(node.url) : 0;
  if (n) found.push(n);
  for (const child of node.children ?? []) citedIn(child, found);
  return found;
}

/** A page's own rows, steps and listings, shown under the sentence that cites it. */
const shownUnder = (block: Node) => ['list', 'code', 'table'].includes(block.type) && citedIn(block).length === 0;

/**
 * The plugin that shows a small image of a cited page holding a figure (`figures`: the source
 * numbers whose page has one) under the block of the answer that first cites it, after the rows,
 * steps and listings that follow that block uncited: on a phone the lines to read and type come
 * first, and a picture of the whole page pushed them below the first screen. Runs after
 * remarkCitations, whose links it reads.
 */
export function remarkPageImages(figures: number[]) {
  return () => (tree: Node) => {
    if (!tree.children || figures.length === 0) return;
    const shown = new Set<number>();
    const blocks: Node[] = [];
    let waiting: number[] = [];
    const place = () => {
      blocks.push(
        ...waiting.map((n) => ({
          type: 'paragraph',
          children: [{ type: 'image', url: pageImageHref(n), children: [] }],
        })),
      );
      waiting = [];
    };
    for (const block of tree.children) {
      if (!shownUnder(block)) place();
      blocks.push(block);
      const images = citedIn(block).filter((n) => figures.includes(n) && !shown.has(n));
      for (const n of images) shown.add(n);
      waiting.push(...images);
    }
    place();
    tree.children = blocks;
  };
}

/** The in-answer address of suggested page n (1-based); ChatMarkdown renders it as a link that opens the page. */
export const suggestionHref = (n: number) => `#suggestion-${n}`;
export const suggestionNumber = (href: string | undefined) =>
  Number(/^#suggestion-(\d{1,2})$/.exec(href ?? '')?.[1] ?? 0);

/**
 * The plugin that makes each list line naming a suggested page (`labels`: suggestionLabel of each,
 * as the server writes them under "Suggestions only") a link to that page. Compared as written in
 * the markdown, so a title or heading holding `*`, `_` or `<...>` still matches, and shown as written.
 */
export function remarkSuggestions(labels: string[]) {
  return () => (tree: Node, file: { value?: unknown }) => {
    if (labels.length === 0) return;
    const markdown = String(file.value ?? '');
    const link = (node: Node) => {
      const line = node.type === 'listItem' && node.children?.length === 1 ? node.children[0]! : undefined;
      const { start, end } = line?.type === 'paragraph' && line.position ? line.position : {};
      const written = start?.offset !== undefined ? markdown.slice(start.offset, end?.offset) : undefined;
      const n = written === undefined ? 0 : labels.indexOf(written) + 1;
      if (n) line!.children = [{ type: 'link', url: suggestionHref(n), children: [{ type: 'text', value: written }] }];
      else node.children?.forEach(link);
    };
    link(tree);
  };
}
