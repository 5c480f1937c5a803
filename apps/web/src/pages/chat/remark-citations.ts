// A remark plugin: "[2]" or "[1, 3]" in an answer's text becomes links to those sources. Code,
// links and numbers that name no source are left as written.

type Node = { type: string; value?: string; url?: string; children?: Node[] };

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

function visit(node: Node, count: number) {
  if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
  node.children = node.children.flatMap((child) =>
    child.type === 'text' && child.value ? split(child.value, count) : (visit(child, count), [child]),
  );
}

/** The plugin for an answer with `count` sources. */
export function remarkCitations(count: number) {
  return () => (tree: Node) => visit(tree, count);
}
