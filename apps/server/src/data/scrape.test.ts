import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, parseHtml } from './scrape-html.js';
import { htmlToMarkdown } from './scrape-markdown.js';
import { mainContent, readLinks, readMetadata } from './scrape-metadata.js';
import { scrapeUrl } from './scrape.js';
import { startServer, type TestHttpServer } from './test-support/web-servers.js';

const base = new URL('https://pumps.example.com/docs/p200');
const markdownOf = (html: string) => htmlToMarkdown(mainContent(parseHtml(html)), base);

describe('HTML to markdown', () => {
  it('closes paragraphs and list items the way HTML implies', () => {
    expect(markdownOf('<body><p>One<p>Two<ul><li>a<li>b<ol><li>b1</ol></ul><p>Three')).toBe(
      'One\n\nTwo\n\n- a\n- b\n  1. b1\n\nThree',
    );
  });

  it('renders tables, quotes, images and inline code, and resolves relative URLs', () => {
    const html =
      '<body><table><tr><th>Part</th><th>Torque</th></tr><tr><td>Bolt | M8</td><td>12 Nm</td></tr></table>' +
      '<blockquote>Wear gloves.</blockquote><img src="../img/a.png" alt="Pump [front]"> Run <code>reset --all</code>.</body>';
    expect(markdownOf(html)).toBe(
      '| Part | Torque |\n| --- | --- |\n| Bolt \\| M8 | 12 Nm |\n\n> Wear gloves.\n\n![Pump front](https://pumps.example.com/img/a.png) Run `reset --all`.',
    );
  });

  it('leaves out scripts, styles, navigation, forms and hidden parts; drops javascript: links', () => {
    const html =
      '<body><nav>Menu</nav><script>if (a < b) document.write("<p>x</p>")</script><style>p{}</style>' +
      '<p hidden>secret</p><form><input value="q"></form><p>Keep <a href="javascript:alert(1)">this</a></p></body>';
    expect(markdownOf(html)).toBe('Keep this');
  });

  it('decodes character references', () => {
    expect(decodeEntities('&lt;b&gt; &amp;amp; &#233;&#x2019; &nbsp;&unknown; &#0;')).toBe(
      '<b> &amp; é’ \u00a0&unknown; \ufffd',
    );
  });

  it('prefers <main>, then the longest <article>, then <body>', () => {
    expect(markdownOf('<body><article>Short</article><article>The longer one</article></body>')).toBe('The longer one');
    expect(markdownOf('<body><div>Intro</div><div role="main">Core</div></body>')).toBe('Core');
  });

  it('reads links once each and metadata fallbacks', () => {
    const document = parseHtml(
      '<html><head><meta property="og:title" content="OG title"><link rel="canonical" href="/docs/p200-v2"></head>' +
        '<body><a href="#top">Top</a><a href="/docs/p200#top">Again</a><a href="mailto:a@b.c">Mail</a><a href="https://www.example.org" title="Other"></a></body></html>',
    );
    expect(readLinks(document, base)).toEqual([
      { text: 'Top', url: 'https://pumps.example.com/docs/p200', type: 'internal' },
      { text: 'Other', url: 'https://www.example.org/', type: 'external' },
    ]);
    expect(readMetadata(document, base)).toMatchObject({
      title: 'OG title',
      description: '',
      url: 'https://pumps.example.com/docs/p200-v2',
      domain: 'pumps.example.com',
      favicon: 'https://pumps.example.com/favicon.ico',
      keywords: [],
    });
  });
});

describe('scrapeUrl', () => {
  let site: TestHttpServer;
  beforeAll(async () => {
    site = await startServer((req, res) => {
      if (req.url === '/latin1')
        res
          .writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' })
          .end(iconv.encode('<p>Café déjà vu</p>', 'latin1'));
      else if (req.url === '/untyped') res.end('<!DOCTYPE html><title>Bare</title><p>No header</p>');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  afterAll(() => site?.close());
  const fetchOptions = () => ({ isAllowedAddress: ({ port }: { port: number }) => port === site.port });

  it('decodes the declared charset and accepts an untyped HTML document', async () => {
    expect(
      (await scrapeUrl({ url: site.url('/latin1'), formats: ['markdown'], fetchOptions: fetchOptions() })).markdown,
    ).toBe('Café déjà vu');
    expect(
      await scrapeUrl({ url: site.url('/untyped'), formats: ['markdown', 'metadata'], fetchOptions: fetchOptions() }),
    ).toMatchObject({ markdown: 'No header', metadata: { title: 'Bare' } });
  });

  it('refuses JSON as not an HTML page', async () => {
    await expect(scrapeUrl({ url: site.url('/data'), fetchOptions: fetchOptions() })).rejects.toMatchObject({
      status: 422,
      code: 'NOT_AN_HTML_PAGE',
    });
  });
});
