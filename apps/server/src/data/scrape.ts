import iconv from 'iconv-lite';
import { ApiError } from '../errors.js';
import { type HtmlElement, type HtmlNode, parseHtml, textOf, voidTags } from './scrape-html.js';
import { htmlToMarkdown } from './scrape-markdown.js';
import {
  mainContent,
  type PageLink,
  type PageMetadata,
  readHeadings,
  readLinks,
  readMetadata,
} from './scrape-metadata.js';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.js';
import { decodeText } from './text-decode.js';

export const scrapeFormats = ['markdown', 'html', 'rawHtml', 'links', 'extract', 'metadata'] as const;
export type ScrapeFormat = (typeof scrapeFormats)[number];

/** PLATFORM_API.md section 6 `scrape`: only the formats asked for are present. */
export interface ScrapeResult {
  markdown?: string;
  html?: string;
  rawHtml?: string;
  links?: PageLink[];
  extract?: { title: string; description: string; headings: string[]; text: string };
  metadata?: PageMetadata;
}

const htmlTypes = new Set(['text/html', 'application/xhtml+xml']);
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function isHtml(contentType: string | undefined, bytes: Buffer): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type) return htmlTypes.has(type);
  // No declared type: accept what plainly starts as an HTML document.
  return /^\s*(<!doctype html|<html[\s>])/i.test(bytes.subarray(0, 512).toString('latin1'));
}

/** The page's text: the charset the server declared, else a <meta charset>, else UTF-8 or a good guess. */
function decodeHtml(bytes: Buffer, contentType: string | undefined): string {
  const declared =
    /charset=["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 4096).toString('latin1'))?.[1];
  if (declared && !/^utf-?8$/i.test(declared) && iconv.encodingExists(declared)) return iconv.decode(bytes, declared);
  return decodeText(bytes);
}

/** Cleaned HTML of the main content: no scripts, styles or event handler attributes. */
function serialize(node: HtmlNode): string {
  if (typeof node === 'string') return escapeText(node);
  const attrs = Object.entries(node.attrs)
    .filter(([name]) => !name.startsWith('on'))
    .map(([name, value]) => ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  if (voidTags.has(node.tag)) return `<${node.tag}${attrs}>`;
  return `<${node.tag}${attrs}>${node.children.map(serialize).join('')}</${node.tag}>`;
}

function present(document: HtmlElement, rawHtml: string, pageUrl: URL, formats: Set<ScrapeFormat>): ScrapeResult {
  const content = mainContent(document);
  const metadata = readMetadata(document, pageUrl);
  const markdown = htmlToMarkdown(content, pageUrl);
  const h1 = readHeadings(content)[0];
  const result: ScrapeResult = {};
  if (formats.has('markdown')) result.markdown = markdown;
  if (formats.has('html')) result.html = content.children.map(serialize).join('').trim();
  if (formats.has('rawHtml')) result.rawHtml = rawHtml;
  if (formats.has('links')) result.links = readLinks(document, pageUrl);
  if (formats.has('metadata')) result.metadata = metadata;
  if (formats.has('extract')) {
    result.extract = {
      title: metadata.title || h1 || '',
      description: metadata.description,
      headings: readHeadings(content),
      text: textOf(content),
    };
  }
  return result;
}

/**
 * Downloads an HTML page with safeFetch (public addresses only, size and time capped) and
 * reads its main text as markdown, its links, metadata and headings. Any signed-in caller.
 * Throws NOT_AN_HTML_PAGE (422) for other content, and safeFetch's errors.
 */
export async function scrapeUrl(options: {
  url: string;
  formats?: ScrapeFormat[];
  fetchOptions?: SafeFetchOptions;
}): Promise<ScrapeResult> {
  const page = await safeFetch(options.url, {
    ...options.fetchOptions,
    headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'FieldAssist page reader' },
  });
  if (!isHtml(page.contentType, page.bytes)) {
    const type = page.contentType?.split(';')[0]?.trim() || 'content of unknown type';
    throw new ApiError(
      'NOT_AN_HTML_PAGE',
      `The URL returned ${type}, not an HTML page (extract-from-url reads documents such as PDF)`,
    );
  }
  const rawHtml = decodeHtml(page.bytes, page.contentType);
  const formats = new Set<ScrapeFormat>(
    options.formats?.length ? options.formats : scrapeFormats.filter((format) => format !== 'rawHtml'),
  );
  return present(parseHtml(rawHtml), rawHtml, new URL(page.url), formats);
}
