import { findAll, findFirst, type HtmlElement, textOf } from './scrape-html.js';
import { absoluteUrl } from './scrape-markdown.js';

/** The page facts of PLATFORM_API.md section 6 (scrape `metadata`). */
export interface PageMetadata {
  title: string;
  description: string;
  url: string;
  domain: string;
  favicon?: string;
  image?: string;
  author?: string;
  publishedTime?: string;
  modifiedTime?: string;
  type?: string;
  siteName?: string;
  locale?: string;
  keywords: string[];
}

export interface PageLink {
  text: string;
  url: string;
  type: 'internal' | 'external';
}

const MAX_LINKS = 1000;

/** The content of the first `<meta>` whose name or property is one of `keys`, in the order given. */
function metaContent(metas: HtmlElement[], ...keys: string[]): string | undefined {
  for (const key of keys) {
    const found = metas.find(
      (meta) => (meta.attrs.property ?? meta.attrs.name ?? meta.attrs.itemprop)?.toLowerCase() === key,
    );
    const content = found?.attrs.content?.trim();
    if (content) return content;
  }
  return undefined;
}

/** Reads title, description, Open Graph and article facts, canonical URL and favicon. */
export function readMetadata(document: HtmlElement, pageUrl: URL): PageMetadata {
  const metas = findAll(document, (element) => element.tag === 'meta');
  const links = findAll(document, (element) => element.tag === 'link' && !!element.attrs.href);
  const linkHref = (test: (rel: string[]) => boolean) => {
    const found = links.find((link) => test((link.attrs.rel ?? '').toLowerCase().split(/\s+/)));
    return absoluteUrl(found?.attrs.href, pageUrl);
  };
  const titleElement = findFirst(document, (element) => element.tag === 'title');
  const canonical = linkHref((rel) => rel.includes('canonical')) ?? absoluteUrl(metaContent(metas, 'og:url'), pageUrl);
  const url = canonical ?? pageUrl.href;
  const html = findFirst(document, (element) => element.tag === 'html');
  return {
    title: (titleElement ? textOf(titleElement) : '') || metaContent(metas, 'og:title', 'twitter:title') || '',
    description: metaContent(metas, 'description', 'og:description', 'twitter:description') ?? '',
    url,
    domain: new URL(url).hostname,
    favicon: linkHref((rel) => rel.includes('icon')) ?? `${pageUrl.origin}/favicon.ico`,
    image: absoluteUrl(metaContent(metas, 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'), pageUrl),
    author: metaContent(metas, 'author', 'article:author', 'twitter:creator'),
    publishedTime: metaContent(metas, 'article:published_time', 'datepublished', 'date', 'dc.date'),
    modifiedTime: metaContent(metas, 'article:modified_time', 'og:updated_time', 'datemodified'),
    type: metaContent(metas, 'og:type'),
    siteName: metaContent(metas, 'og:site_name', 'application-name'),
    locale: metaContent(metas, 'og:locale') ?? html?.attrs.lang?.trim() ?? undefined,
    keywords: (metaContent(metas, 'keywords') ?? '')
      .split(',')
      .map((keyword) => keyword.trim())
      .filter(Boolean),
  };
}

/** Every http(s) link of the page, once each, marked internal when it stays on the page's host. */
export function readLinks(document: HtmlElement, pageUrl: URL): PageLink[] {
  const seen = new Set<string>();
  const links: PageLink[] = [];
  for (const anchor of findAll(document, (element) => element.tag === 'a')) {
    const url = absoluteUrl(anchor.attrs.href, pageUrl)?.replace(/#.*$/, '');
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const text = textOf(anchor) || anchor.attrs.title?.trim() || anchor.attrs['aria-label']?.trim() || '';
    links.push({ text, url, type: new URL(url).hostname === pageUrl.hostname ? 'internal' : 'external' });
    if (links.length >= MAX_LINKS) break;
  }
  return links;
}

/** The element that holds the page's own text: <main>, else the longest <article>, else <body>. */
export function mainContent(document: HtmlElement): HtmlElement {
  const main = findFirst(document, (element) => element.tag === 'main' || element.attrs.role === 'main');
  if (main) return main;
  const articles = findAll(document, (element) => element.tag === 'article');
  if (articles.length > 0)
    return articles.reduce((best, article) => (textOf(article).length > textOf(best).length ? article : best));
  return findFirst(document, (element) => element.tag === 'body') ?? document;
}

/** The text of every heading, h1 to h6, in page order. */
export function readHeadings(content: HtmlElement): string[] {
  return findAll(content, (element) => /^h[1-6]$/.test(element.tag))
    .map(textOf)
    .filter(Boolean);
}
