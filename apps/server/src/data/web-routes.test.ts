import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';
import { signUpUser } from '../test-support/users.js';
import { startForbiddenServer, startServer, startWebDataApp, type TestHttpServer } from './test-support/web-servers.js';

// The scrape, fetch and search routes against real local servers: "site" plays a public web
// site (the test policy allows its port), "searx" a SearXNG, "forbidden" must never be reached.
let site: TestHttpServer;
let forbidden: TestHttpServer;
let searx: TestHttpServer;
let web: Awaited<ReturnType<typeof startWebDataApp>>;
let lastSearch: URLSearchParams | undefined;

const article = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8">
<title>Pump P-200 service</title>
<meta name="description" content="How to service the P-200 pump">
<meta property="og:site_name" content="Pump Co"><meta property="og:type" content="article">
<meta property="og:image" content="/img/p200.jpg"><meta name="author" content="Ana Field">
<meta property="article:published_time" content="2024-05-01T10:00:00Z">
<meta name="keywords" content="pump, service , seals">
<link rel="icon" href="/favicon.png"><script>var tracking = "<h1>not text</h1>";</script><style>h1{}</style>
</head><body><nav><a href="/">Home</a> <a href="/catalogue">Catalogue</a></nav>
<main><h1>Servicing the P-200</h1><p>Turn the pump <strong>off</strong> &amp; wait.</p>
<h2>Seals</h2><ul><li>Check the <a href="https://parts.example.com/seal">seal kit</a></li><li>Replace worn rings</li></ul>
<pre>torque = 12 Nm\n  check twice</pre></main>
<footer>© Pump Co</footer></body></html>`;

beforeAll(async () => {
  forbidden = await startForbiddenServer();
  site = await startServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article);
    else if (url.pathname === '/manual.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7');
    else if (url.pathname === '/redirect') res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    else if (url.pathname === '/keep-method') res.writeHead(307, { location: '/echo' }).end();
    else if (url.pathname === '/echo') {
      res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'site' });
      res.end(
        JSON.stringify({
          method: req.method,
          headers: req.headers,
          body: body.toString(),
          query: Object.fromEntries(url.searchParams),
        }),
      );
    } else if (url.pathname === '/text') res.writeHead(200, { 'content-type': 'text/plain' }).end('plain words');
    else if (url.pathname === '/binary')
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 255]));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"nope"}');
  });
  searx = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    lastSearch = url.searchParams;
    if (url.pathname !== '/searx/search') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        query: url.searchParams.get('q'),
        number_of_results: 0,
        results: [
          {
            url: 'https://pumps.example.com/p200',
            title: 'P-200 manual',
            content: 'Service steps',
            engine: 'duckduckgo',
            publishedDate: '2024-01-02',
          },
          {
            url: 'https://forum.example.com/t/1',
            title: 'Seal trouble',
            content: 'Leaks after 2 years',
            engine: 'bing',
          },
        ],
        suggestions: ['p200 seal kit'],
        answers: [],
        infoboxes: [],
      }),
    );
  });
  web = await startWebDataApp({ allowedPort: site.port, env: { SEARCH_URL: searx.url('/searx') } });
});

afterAll(async () => {
  await Promise.all([web?.close(), site?.close(), forbidden?.close(), searx?.close()]);
});

const post = (op: string, payload: unknown, headers: Record<string, string> = web.user.headers) =>
  web.app.inject({ method: 'POST', url: `/api/data/${web.projectId}/${op}`, headers, payload: payload as object });
const refused = {
  error: 'This address is not allowed',
  message: 'This address is not allowed',
  code: 'URL_NOT_ALLOWED',
};
const privateTargets = [
  () => forbidden.url('/'),
  () => `http://[::1]:${forbidden.port}/`,
  () => 'http://10.0.0.1/',
  () => 'http://169.254.169.254/latest/meta-data',
];

describe('scrape and fetch refuse the server’s own network', () => {
  it.each(['scrape', 'fetch'])('%s refuses private addresses, directly and through a redirect', async (op) => {
    for (const target of privateTargets) {
      for (const url of [target(), site.url(`/redirect?to=${encodeURIComponent(target())}`)]) {
        const res = await post(op, { url });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual(refused);
      }
    }
    expect(forbidden.stats.connections).toBe(0);
  });
});

describe('POST /api/data/:projectId/scrape', () => {
  it('reads the main text as markdown, with metadata, links and headings', async () => {
    const res = await post('scrape', {
      url: site.url('/article'),
      formats: ['markdown', 'html', 'links', 'extract', 'metadata'],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.markdown).toBe(
      [
        '# Servicing the P-200',
        'Turn the pump **off** & wait.',
        '## Seals',
        '- Check the [seal kit](https://parts.example.com/seal)\n- Replace worn rings',
        '```\ntorque = 12 Nm\n  check twice\n```',
      ].join('\n\n'),
    );
    expect(body.html).toMatch(/^<h1>Servicing the P-200<\/h1><p>Turn the pump <strong>off<\/strong> &amp; wait.<\/p>/);
    expect(body.metadata).toEqual({
      title: 'Pump P-200 service',
      description: 'How to service the P-200 pump',
      url: site.url('/article'),
      domain: '127.0.0.1',
      favicon: site.url('/favicon.png'),
      image: site.url('/img/p200.jpg'),
      author: 'Ana Field',
      publishedTime: '2024-05-01T10:00:00Z',
      type: 'article',
      siteName: 'Pump Co',
      locale: 'en-GB',
      keywords: ['pump', 'service', 'seals'],
    });
    expect(body.links).toEqual([
      { text: 'Home', url: site.url('/'), type: 'internal' },
      { text: 'Catalogue', url: site.url('/catalogue'), type: 'internal' },
      { text: 'seal kit', url: 'https://parts.example.com/seal', type: 'external' },
    ]);
    expect(body.extract).toMatchObject({
      title: 'Pump P-200 service',
      description: 'How to service the P-200 pump',
      headings: ['Servicing the P-200', 'Seals'],
    });
    expect(body.extract.text).toMatch(
      /^Servicing the P-200 Turn the pump off & wait\. Seals Check the seal kit Replace worn rings/,
    );
  });

  it('answers only the formats asked for', async () => {
    const res = await post('scrape', { url: site.url('/article'), formats: ['links'] });
    expect(Object.keys(res.json())).toEqual(['links']);
  });

  it('refuses content that is not an HTML page with 422', async () => {
    const res = await post('scrape', { url: site.url('/manual.pdf') });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'NOT_AN_HTML_PAGE',
      message: 'The URL returned application/pdf, not an HTML page (extract-from-url reads documents such as PDF)',
    });
  });
});

describe('POST /api/data/:projectId/fetch', () => {
  it('sends method, headers, query and a JSON body, and answers status, headers, parsed body and time', async () => {
    const res = await post('fetch', {
      url: site.url('/echo?keep=1'),
      method: 'post',
      query: { page: 2, tags: ['a', 'b'] },
      headers: { 'X-Api-Key': 'k-1', Host: 'evil.test', 'X-Forwarded-For': '10.0.0.1', Cookie: 'session=abc' },
      body: { part: 'seal' },
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/json', 'x-served-by': 'site' },
      durationMs: expect.any(Number),
    });
    expect(answer.body).toMatchObject({
      method: 'POST',
      body: '{"part":"seal"}',
      query: { keep: '1', page: '2', tags: 'b' },
    });
    expect(answer.body.headers).toMatchObject({
      'x-api-key': 'k-1',
      host: `127.0.0.1:${site.port}`,
      cookie: 'session=abc',
      'content-type': 'application/json',
    });
    expect(answer.body.headers['x-forwarded-for']).toBeUndefined();
    expect(answer.headers.connection).toBeUndefined();
  });

  it('passes the target’s error status through and keeps method and body on a 307', async () => {
    const missing = await post('fetch', { url: site.url('/nothing') });
    expect(missing.json()).toMatchObject({ status: 404, body: { error: 'nope' } });
    const kept = await post('fetch', { url: site.url('/keep-method'), method: 'PUT', body: 'raw text' });
    expect(kept.json().body).toMatchObject({ method: 'PUT', body: 'raw text' });
  });

  it('answers text as text and binary as base64', async () => {
    expect((await post('fetch', { url: site.url('/text') })).json().body).toBe('plain words');
    expect((await post('fetch', { url: site.url('/binary') })).json().body).toBe(
      Buffer.from([0, 1, 2, 255]).toString('base64'),
    );
    expect((await post('fetch', { url: site.url('/text'), method: 'HEAD' })).json()).toMatchObject({
      status: 200,
      body: '',
    });
  });

  it('runs an async request in the background', async () => {
    const before = site.stats.requests;
    const res = await post('fetch', { url: site.url('/echo'), async: true });
    expect(res.json()).toEqual({ status: 'triggered', message: 'The request is running in the background' });
    await expect.poll(() => site.stats.requests).toBe(before + 1);
    expect((await post('fetch', { url: forbidden.url('/'), async: true })).json()).toEqual(refused);
  });

  it('refuses {{secret}} placeholders: there is no secret store', async () => {
    const res = await post('fetch', { url: site.url('/echo'), headers: { authorization: 'Bearer {{PARTS_API_KEY}}' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'SECRETS_NOT_SUPPORTED',
      message: 'This server has no secret store, so {{PARTS_API_KEY}} cannot be filled in: send the value itself',
    });
  });

  it('refuses other methods, bad headers and a body on GET, naming the field', async () => {
    const trace = await post('fetch', { url: site.url('/echo'), method: 'TRACE' });
    expect(trace.statusCode).toBe(400);
    expect(trace.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^body\.method: /) });
    const header = await post('fetch', { url: site.url('/echo'), headers: { 'x-a': 'one\r\nx-b: two' } });
    expect(header.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body.headers.x-a: a header value cannot contain line breaks',
    });
    const getBody = await post('fetch', { url: site.url('/echo'), body: { a: 1 } });
    expect(getBody.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body: a GET request cannot have a body',
    });
  });
});

describe('POST /api/data/:projectId/search', () => {
  it('asks SearXNG for JSON and answers the platform’s shape', async () => {
    const res = await post('search', { q: 'p200 seals', hl: 'de', tbm: 'nws', num: 1 });
    expect(res.statusCode).toBe(200);
    expect(Object.fromEntries(lastSearch!)).toEqual({
      q: 'p200 seals',
      format: 'json',
      language: 'de',
      categories: 'news',
    });
    expect(res.json()).toEqual({
      organic_results: [
        { position: 1, title: 'P-200 manual', link: 'https://pumps.example.com/p200', snippet: 'Service steps' },
      ],
      total_results: '2',
      related_searches: ['p200 seal kit'],
      news_results: [
        {
          title: 'P-200 manual',
          link: 'https://pumps.example.com/p200',
          snippet: 'Service steps',
          date: '2024-01-02',
          source: 'duckduckgo',
        },
      ],
    });
    await post('search', { q: 'pumps' });
    expect(lastSearch!.get('language')).toBe('en');
  });

  it('refuses an empty query with 400', async () => {
    const res = await post('search', { q: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^body\.q: /) });
  });
});

describe('every web data route on the real app', () => {
  it('needs a signed-in caller before reading the body, and search needs SEARCH_URL', async () => {
    const { app, projectId } = await buildTestApp();
    try {
      for (const op of ['scrape', 'fetch', 'screenshot', 'search']) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/data/${projectId}/${op}`,
          headers: { 'content-type': 'application/json' },
          payload: '{not json',
        });
        expect(res.statusCode, op).toBe(401);
        expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      }
      const user = await signUpUser(app, { role: 'viewer', projectId });
      const res = await app.inject({
        method: 'POST',
        url: `/api/data/${projectId}/search`,
        headers: user.headers,
        payload: { q: 'pump' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'No search backend is configured (set SEARCH_URL)',
        message: 'No search backend is configured (set SEARCH_URL)',
        code: 'SEARCH_NOT_CONFIGURED',
      });
      // The app's own policy: public addresses only.
      const local = await app.inject({
        method: 'POST',
        url: `/api/data/${projectId}/scrape`,
        headers: user.headers,
        payload: { url: site.url('/article') },
      });
      expect(local.json()).toEqual(refused);
    } finally {
      await app.close();
    }
  });
});
