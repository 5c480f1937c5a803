/**
 * A small, forgiving HTML reader for scraping: enough of the HTML parsing rules to find a
 * page's text, headings, links and meta tags, not a browser's DOM. Scripts, styles and
 * comments are dropped while reading.
 */
export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
  parent?: HtmlElement;
}
export type HtmlNode = HtmlElement | string;

export const voidTags = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
// Their content is never markup: it runs to the matching end tag.
const rawTextTags = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'noscript',
  'template',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
]);
const droppedTags = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'noembed', 'noframes']);
const blockTags = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);
// An open element of the key's kind ends when one of these starts (HTML's implied end tags).
const closedBy: Record<string, Set<string>> = {
  p: blockTags,
  li: new Set(['li']),
  dt: new Set(['dt', 'dd']),
  dd: new Set(['dt', 'dd']),
  option: new Set(['option', 'optgroup']),
  tr: new Set(['tr', 'tbody', 'thead', 'tfoot']),
  td: new Set(['td', 'th', 'tr', 'tbody', 'thead', 'tfoot']),
  th: new Set(['td', 'th', 'tr', 'tbody', 'thead', 'tfoot']),
};
// Elements that bound the search for an implied end (an <li> in a nested list does not end the outer one).
const scopeTags = new Set([
  'ul',
  'ol',
  'table',
  'dl',
  'select',
  'div',
  'section',
  'article',
  'main',
  'body',
  'html',
  'blockquote',
]);

const namedEntities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  deg: '°',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  times: '×',
  divide: '÷',
  plusmn: '±',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  micro: 'µ',
  shy: '\u00ad',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  ohm: 'Ω',
};

/** Decodes character references: numeric ones and the common named ones (others stay as written). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);?/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return namedEntities[name] ?? namedEntities[name.toLowerCase()] ?? whole;
  });
}

function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const match of source.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    const name = match[1]!.toLowerCase();
    if (!(name in attrs)) attrs[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attrs;
}

/** Reads an HTML document into a tree whose root is a synthetic `#document` element. */
export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: '#document', attrs: {}, children: [] };
  let current = root;
  const open = (tag: string) => {
    for (let node: HtmlElement | undefined = current; node && node !== root; node = node.parent) {
      if (closedBy[node.tag]?.has(tag)) {
        current = node.parent!;
        return;
      }
      if (scopeTags.has(node.tag)) return;
    }
  };
  const close = (tag: string) => {
    for (let node: HtmlElement | undefined = current; node && node !== root; node = node.parent) {
      if (node.tag === tag) {
        current = node.parent!;
        return;
      }
    }
  };
  const token = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\?[^>]*>|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  let last = 0;
  for (let match = token.exec(html); match; match = token.exec(html)) {
    if (match.index > last) current.children.push(decodeEntities(html.slice(last, match.index)));
    last = token.lastIndex;
    const [, slash, rawTag, attrSource = ''] = match;
    if (!rawTag) continue;
    const tag = rawTag.toLowerCase();
    if (slash) {
      close(tag);
      continue;
    }
    open(tag);
    const element: HtmlElement = {
      tag,
      attrs: parseAttrs(attrSource.replace(/\/\s*$/, '')),
      children: [],
      parent: current,
    };
    if (rawTextTags.has(tag)) {
      const end = html.toLowerCase().indexOf(`</${tag}`, last);
      const stop = end < 0 ? html.length : end;
      if (!droppedTags.has(tag)) {
        element.children.push(decodeEntities(html.slice(last, stop)));
        current.children.push(element);
      }
      last = end < 0 ? html.length : html.indexOf('>', end) + 1 || html.length;
      token.lastIndex = last;
      continue;
    }
    current.children.push(element);
    if (!voidTags.has(tag) && !attrSource.trimEnd().endsWith('/')) current = element;
  }
  if (last < html.length) current.children.push(decodeEntities(html.slice(last)));
  return root;
}

/** Every element under `node` (depth first, document order) that `test` accepts. */
export function findAll(
  node: HtmlElement,
  test: (element: HtmlElement) => boolean,
  found: HtmlElement[] = [],
): HtmlElement[] {
  for (const child of node.children) {
    if (typeof child === 'string') continue;
    if (test(child)) found.push(child);
    findAll(child, test, found);
  }
  return found;
}

export const findFirst = (node: HtmlElement, test: (element: HtmlElement) => boolean) => findAll(node, test)[0];

/** The element's text with whitespace collapsed, as a reader sees it. */
export function textOf(node: HtmlNode): string {
  const raw = (function collect(n: HtmlNode): string {
    if (typeof n === 'string') return n;
    const inner = n.children.map(collect).join('');
    return blockTags.has(n.tag) || ['br', 'li', 'td', 'th', 'dt', 'dd', 'tr'].includes(n.tag) ? ` ${inner} ` : inner;
  })(node);
  return raw.replace(/\s+/g, ' ').trim();
}
