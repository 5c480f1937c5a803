import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPng } from './fixtures/make-documents.js';
import { createScreenshotter } from './screenshot.js';
import { startForbiddenServer, startServer, startWebDataApp, type TestHttpServer } from './test-support/web-servers.js';

// Real Chromium (/usr/bin/chromium through playwright-core) against local servers: "site" is
// allowed by the test policy as if it were public; "forbidden" is a second loopback port the
// policy refuses, which the page tries to reach every way it can.
let site: TestHttpServer;
let forbidden: TestHttpServer;
let web: Awaited<ReturnType<typeof startWebDataApp>>;
const seen: string[] = [];
let slowAskedAt = 0;
let slowAnsweredAt = 0;
let tallAskedAt = 0;
// A browser test's budget is its page, not Chromium's first start: on a machine just booted,
// reading the browser from a cold disk under the other test files' load took CI past 30 s.
const SHOT_TEST_MS = 90_000;

const trickyPage = () => `<!doctype html><html><head><link rel="preconnect" href="${forbidden.url('/')}"></head>
<body style="margin:0;background:#2a6"><h1>Pump room</h1>
<img id="ok" src="/ok.png" onload="fetch('/report?ok=loaded')">
<img id="bad" src="${forbidden.url('/pixel.png')}" onerror="fetch('/report?bad=blocked')">
<img id="hop" src="/redirect?to=${encodeURIComponent(forbidden.url('/hop.png'))}" onerror="fetch('/report?hop=blocked')">
<script>
  fetch('${forbidden.url('/api')}').catch(() => fetch('/report?fetch=blocked'));
  try { new WebSocket('ws://127.0.0.1:${forbidden.port}/'); } catch {}
</script></body></html>`;

beforeAll(async () => {
  const warm = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await warm.close();
  forbidden = await startForbiddenServer();
  site = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url.pathname + url.search);
    if (url.pathname === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end(trickyPage());
    else if (url.pathname === '/tall' && (tallAskedAt = Date.now()))
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<body style="margin:0"><div style="height:3000px;background:#36c"></div></body>');
    else if (url.pathname === '/slow') {
      slowAskedAt = Date.now();
      setTimeout(() => {
        slowAnsweredAt = Date.now();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>late</p>');
      }, 1500);
    } else if (url.pathname === '/ok.png') res.writeHead(200, { 'content-type': 'image/png' }).end(tinyPng);
    else if (url.pathname === '/redirect') res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    else res.writeHead(204).end();
  });
  web = await startWebDataApp({
    allowedPort: site.port,
    env: { SCREENSHOT_TIMEOUT_MS: String(SHOT_TEST_MS - 10_000) },
  });
}, 180_000);

afterAll(async () => {
  await Promise.all([web?.close(), site?.close(), forbidden?.close()]);
});

const screenshot = (payload: unknown, headers: Record<string, string> = web.user.headers) =>
  web.app.inject({ method: 'POST', url: `/api/data/${web.projectId}/screenshot`, headers, payload: payload as object });

/** Width and height from a PNG's IHDR chunk. */
async function pngSize(publicUrl: string) {
  const file = await web.files.readByPublicUrl(publicUrl);
  expect(file?.contentType).toBe('image/png');
  const bytes = file!.bytes;
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('POST /api/data/:projectId/screenshot', () => {
  it(
    'stores a PNG of the page; the page reaches its own site but nothing else on the network',
    async () => {
      const res = await screenshot({ url: site.url('/page'), width: 800, height: 600 });
      expect(res.statusCode).toBe(200);
      expect(await pngSize(res.json().url)).toEqual({ width: 800, height: 600 });
      await expect
        .poll(() => seen)
        .toEqual(
          expect.arrayContaining([
            '/ok.png',
            '/report?ok=loaded',
            '/report?bad=blocked',
            '/report?hop=blocked',
            '/report?fetch=blocked',
          ]),
        );
      // No request, and not even a connection (preconnect, WebSocket), reached the forbidden port.
      expect(forbidden.stats.connections).toBe(0);
    },
    SHOT_TEST_MS,
  );

  it(
    'captures the full page when asked',
    async () => {
      const res = await screenshot({ url: site.url('/tall'), width: 640, height: 480, fullPage: true });
      expect(await pngSize(res.json().url)).toEqual({ width: 640, height: 3000 });
    },
    SHOT_TEST_MS,
  );

  it(
    'refuses private addresses, directly and through a redirect of the page itself',
    async () => {
      for (const target of [
        forbidden.url('/'),
        `http://[::1]:${forbidden.port}/`,
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data',
      ]) {
        for (const url of [target, site.url(`/redirect?to=${encodeURIComponent(target)}`)]) {
          const res = await screenshot({ url });
          expect(res.statusCode, url).toBe(400);
          expect(res.json()).toEqual({
            error: 'This address is not allowed',
            message: 'This address is not allowed',
            code: 'URL_NOT_ALLOWED',
          });
        }
      }
      expect(forbidden.stats.connections).toBe(0);
    },
    SHOT_TEST_MS,
  );

  it('bounds the size and needs a signed-in caller', async () => {
    const small = await screenshot({ url: site.url('/page'), width: 100 });
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^body\.width: /) });
    const huge = await screenshot({ url: site.url('/page'), height: 5000 });
    expect(huge.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^body\.height: /) });
    expect((await screenshot({ url: site.url('/page') }, {})).statusCode).toBe(401);
  });
});

describe('the screenshot queue', () => {
  const policy = {
    isAllowedAddress: ({ address, port }: { address: string; port: number }) =>
      address === '127.0.0.1' && port === site.port,
  };
  const saveFile = async () => 'http://files.test/shot.png';

  it('answers 503 when Chromium is missing', async () => {
    const shots = createScreenshotter({
      chromiumPath: '/nonexistent/chromium',
      timeoutMs: 5000,
      concurrency: 1,
      saveFile,
    });
    await expect(shots.takeScreenshot({ url: 'https://example.com/' })).rejects.toMatchObject({
      status: 503,
      code: 'SCREENSHOTS_UNAVAILABLE',
      message: 'Screenshots need Chromium on the server',
    });
  });

  it('gives up after the time limit when Chromium does not start within it, as a time-out, not a missing browser', async () => {
    const instant = createScreenshotter({
      chromiumPath: '/usr/bin/chromium',
      timeoutMs: 1,
      concurrency: 1,
      fetchOptions: policy,
      saveFile,
    });
    await expect(instant.takeScreenshot({ url: site.url('/page') })).rejects.toMatchObject({ code: 'FETCH_TIMEOUT' });
  });

  it(
    'runs one browser at a time, refuses beyond the queue, and gives up after the time limit',
    async () => {
      const shots = createScreenshotter({
        chromiumPath: '/usr/bin/chromium',
        timeoutMs: 20_000,
        concurrency: 1,
        maxWaiting: 1,
        fetchOptions: policy,
        saveFile,
      });
      const first = shots.takeScreenshot({ url: site.url('/slow') });
      // Each call checks its target before it queues, so two calls made together may queue in
      // either order: with the one browser busy and one place to wait, exactly one of them is refused.
      await expect.poll(() => slowAskedAt, { timeout: 15_000 }).toBeGreaterThan(0);
      const [second, third] = await Promise.allSettled([
        shots.takeScreenshot({ url: site.url('/tall') }),
        shots.takeScreenshot({ url: site.url('/tall') }),
      ]);
      const refused = [second, third].filter((result) => result.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      await expect(first).resolves.toMatchObject({ url: 'http://files.test/shot.png' });
      // The second browser opened its page only after the first had its answer.
      expect(tallAskedAt).toBeGreaterThanOrEqual(slowAnsweredAt);

      const hasty = createScreenshotter({
        chromiumPath: '/usr/bin/chromium',
        timeoutMs: 1000,
        concurrency: 1,
        fetchOptions: policy,
        saveFile,
      });
      await expect(hasty.takeScreenshot({ url: site.url('/slow') })).rejects.toMatchObject({ code: 'FETCH_TIMEOUT' });
    },
    SHOT_TEST_MS,
  );
});
