import { type HtmlElement, type HtmlNode, textOf } from './scrape-html.js';

// Page furniture and controls: not part of the text a reader came for.
const skippedTags = new Set([
  'head',
  'nav',
  'footer',
  'aside',
  'form',
  'button',
  'select',
  'input',
  'textarea',
  'svg',
  'canvas',
  'dialog',
  'menu',
  'title',
  'object',
  'video',
  'audio',
]);
const blockTags = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'center',
]);
// Private markers, replaced at the end: indentation that must survive the whitespace tidy-up,
// and preformatted blocks that must not be tidied at all.
const INDENT = '\u0001';
const PRE = '\u0002';

interface RenderContext {
  base: URL;
  pre: string[];
}

/** An absolute http(s) URL for an href or src, or undefined for anything else (javascript:, data:, ...). */
export function absoluteUrl(href: string | undefined, base: URL): string | undefined {
  if (!href?.trim()) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const block = (inner: string) => `\n\n${inner.trim()}\n\n`;

function wrap(inner: string, mark: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  return match[2] ? `${match[1]}${mark}${match[2]}${mark}${match[3]}` : inner;
}

function renderList(list: HtmlElement, ctx: RenderContext): string {
  const items = list.children.filter((child): child is HtmlElement => typeof child !== 'string' && child.tag === 'li');
  const start = Number(list.attrs.start) || 1;
  const lines = items.map((item, index) => {
    const marker = list.tag === 'ol' ? `${start + index}. ` : '- ';
    // A list inside an item stays tight against the item's text.
    const body = tidy(renderChildren(item, ctx))
      .replace(/\n\n(?=- |\d+\. )/g, '\n')
      .replace(/\n/g, `\n${INDENT.repeat(marker.length)}`);
    return marker + body;
  });
  return block(lines.join('\n'));
}

function renderTable(table: HtmlElement, ctx: RenderContext): string {
  const rows: string[][] = [];
  (function collect(node: HtmlElement) {
    for (const child of node.children) {
      if (typeof child === 'string') continue;
      if (child.tag === 'tr')
        rows.push(
          child.children
            .filter((c): c is HtmlElement => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th'))
            .map((cell) => tidy(renderChildren(cell, ctx)).replace(/\n+/g, ' ').replace(/\|/g, '\\|')),
        );
      else if (child.tag !== 'table') collect(child);
    }
  })(table);
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (cells: string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  return block([line(rows[0]!), line(Array(width).fill('---')), ...rows.slice(1).map(line)].join('\n'));
}

function renderChildren(node: HtmlElement, ctx: RenderContext): string {
  return node.children.map((child) => renderNode(child, ctx)).join('');
}

function renderNode(node: HtmlNode, ctx: RenderContext): string {
  if (typeof node === 'string') return node.replace(/\s+/g, ' ');
  if (skippedTags.has(node.tag) || node.attrs.hidden !== undefined || node.attrs['aria-hidden'] === 'true') return '';
  const heading = /^h([1-6])$/.exec(node.tag);
  if (heading) return block(`${'#'.repeat(Number(heading[1]))} ${textOf(node)}`);
  if (blockTags.has(node.tag)) return block(renderChildren(node, ctx));
  switch (node.tag) {
    case 'br':
      return '\n';
    case 'hr':
      return block('---');
    case 'strong':
    case 'b':
      return wrap(renderChildren(node, ctx), '**');
    case 'em':
    case 'i':
      return wrap(renderChildren(node, ctx), '_');
    case 'code':
    case 'kbd':
      return wrap(textOf(node), '`');
    case 'ul':
    case 'ol':
      return renderList(node, ctx);
    case 'table':
      return renderTable(node, ctx);
    case 'blockquote':
      return block(tidy(renderChildren(node, ctx)).replace(/^/gm, '> '));
    case 'pre': {
      ctx.pre.push(
        (function raw(n: HtmlNode): string {
          return typeof n === 'string' ? n : n.tag === 'br' ? '\n' : n.children.map(raw).join('');
        })(node).replace(/^\n|\s+$/g, ''),
      );
      return block(`${PRE}${ctx.pre.length - 1}${PRE}`);
    }
    case 'a': {
      const inner = renderChildren(node, ctx);
      const href = absoluteUrl(node.attrs.href, ctx.base);
      return href && inner.trim() ? `[${inner.trim()}](${href})` : inner;
    }
    case 'img': {
      const src = absoluteUrl(node.attrs.src, ctx.base);
      return src ? `![${(node.attrs.alt ?? '').replace(/[[\]]/g, '')}](${src})` : '';
    }
    default:
      return renderChildren(node, ctx);
  }
}

/** Collapses the whitespace an HTML source leaves between and inside blocks. */
function tidy(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Markdown of an element's readable content: headings, paragraphs, lists, tables, links, images, code. */
export function htmlToMarkdown(node: HtmlElement, base: URL): string {
  const ctx: RenderContext = { base, pre: [] };
  return tidy(renderChildren(node, ctx))
    .replaceAll(INDENT, ' ')
    .replace(/ +$/gm, '')
    .replace(
      new RegExp(`${PRE}(\\d+)${PRE}`, 'g'),
      (_whole, index: string) => `\`\`\`\n${ctx.pre[Number(index)]}\n\`\`\``,
    );
}
