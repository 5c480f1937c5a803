import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { ApiError } from '../errors.js';
import { findAll, type HtmlElement, type HtmlNode, parseHtml, textOf } from './scrape-html.js';

// Word has no "code": these paragraph styles are where manuals put commands and listings.
const codeStyles = ['Code', 'Source Code', 'HTML Preformatted', 'Plain Text', 'Macro Text', 'Command'];
const styleMap = codeStyles.map((name) => `p[style-name='${name}'] => pre:separator('\\n')`);

/** One line of text of an element, whitespace collapsed (line breaks inside a paragraph become spaces). */
const lineOf = (node: HtmlNode) => textOf(node);

/** The blocks of mammoth's HTML as text lines: paragraphs, list items numbered as printed, table rows, code. */
function blocksOf(element: HtmlElement, out: string[]) {
  for (const child of element.children) {
    if (typeof child === 'string') {
      if (child.trim()) out.push(child.trim());
      continue;
    }
    if (child.tag === 'pre')
      out.push(
        `\`\`\`\n${(function raw(n: HtmlNode): string {
          return typeof n === 'string' ? n : n.children.map(raw).join('');
        })(child).replace(/\n+$/, '')}\n\`\`\``,
      );
    else if (child.tag === 'ol' || child.tag === 'ul') {
      const items = child.children.filter((c): c is HtmlElement => typeof c !== 'string' && c.tag === 'li');
      // A list item's own text, then its nested lists after it.
      const lines = items.flatMap((item, i) => {
        const nested: string[] = [];
        const own = {
          ...item,
          children: item.children.filter((c) => typeof c === 'string' || (c.tag !== 'ol' && c.tag !== 'ul')),
        };
        for (const list of item.children.filter(
          (c): c is HtmlElement => typeof c !== 'string' && (c.tag === 'ol' || c.tag === 'ul'),
        ))
          blocksOf({ ...item, children: [list] }, nested);
        return [`${child.tag === 'ol' ? `${i + 1}.` : '•'} ${lineOf(own)}`, ...nested];
      });
      out.push(lines.join('\n'));
    } else if (child.tag === 'table') {
      const rows = findAll(child, (e) => e.tag === 'tr').map((tr) =>
        tr.children
          .filter((c): c is HtmlElement => typeof c !== 'string' && (c.tag === 'td' || c.tag === 'th'))
          .map(lineOf)
          .join(' | '),
      );
      out.push(rows.filter((r) => r.replace(/[|\s]/g, '')).join('\n'));
    } else if (['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote'].includes(child.tag)) {
      const line = lineOf(child);
      if (line) out.push(line);
    } else blocksOf(child, out);
  }
}

/**
 * The text of a Word 2007+ file, read with mammoth: paragraphs separated by a blank line, list
 * items numbered as printed, a table as one line per row (cells between " | "), and paragraphs
 * in a code style fenced with their line breaks.
 */
export async function readDocxText(bytes: Buffer): Promise<string> {
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: bytes }, { styleMap, ignoreEmptyParagraphs: true }));
  } catch {
    throw new ApiError('UNREADABLE_DOCUMENT', 'The file could not be read as a Word (.docx) document');
  }
  const out: string[] = [];
  blocksOf(parseHtml(html), out);
  return out.join('\n\n');
}

/** The body text of a Word 97-2003 file, read with word-extractor. */
export async function readDocText(bytes: Buffer): Promise<string> {
  try {
    const document = await new WordExtractor().extract(bytes);
    return document.getBody();
  } catch {
    throw new ApiError('UNREADABLE_DOCUMENT', 'The file could not be read as a Word (.doc) document');
  }
}
