import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from './address-policy.js';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.js';

// Two real local servers. "Allowed" plays a public web server: the tests' policy lets the
// fetcher reach 127.0.0.1 on its port only. "Forbidden" must never see a request.
let allowed: Server;
let forbidden: Server;
let allowedPort = 0;
let forbiddenPort = 0;
let forbiddenHits = 0;
let lastHeaders: IncomingHttpHeaders = {};

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

beforeAll(async () => {
  allowed = createServer((req, res) => {
    lastHeaders = req.headers;
    const url = new URL(req.url ?? '/', 'http://x');
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/manual') {
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-disposition': 'attachment; filename="Pump manual.pdf"',
      });
      res.end('%PDF-1.7 pretend');
    } else if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    } else if (chain) {
      const n = Number(chain[1]);
      res.writeHead(302, { location: n > 0 ? `/chain/${n - 1}` : '/manual' }).end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'content-length': String(2 * 1024 * 1024) }).end(Buffer.alloc(2 * 1024 * 1024));
    } else if (url.pathname === '/big-chunked') {
      res.writeHead(200);
      for (let i = 0; i < 40; i++) res.write(Buffer.alloc(64 * 1024));
      res.end();
    } else if (url.pathname === '/slow') {
      // Never answers.
    } else {
      res.writeHead(404).end('missing');
    }
  });
  forbidden = createServer((_req, res) => {
    forbiddenHits++;
    res.end('secret');
  });
  [allowedPort, forbiddenPort] = await Promise.all([listen(allowed), listen(forbidden)]);
});

afterAll(async () => {
  allowed.closeAllConnections();
  await Promise.all([new Promise((r) => allowed.close(r)), new Promise((r) => forbidden.close(r))]);
});

const testPolicy: SafeFetchOptions = {
  isAllowedAddress: ({ address, port }) =>
    (address === '127.0.0.1' && port === allowedPort) || isPublicAddress(address),
};
const refused = { code: 'URL_NOT_ALLOWED', message: 'This address is not allowed' };

describe('safeFetch refuses the server’s own network', () => {
  it.each([
    () => `http://127.0.0.1:${forbiddenPort}/`,
    () => `http://[::1]:${forbiddenPort}/`,
    () => `http://localhost:${forbiddenPort}/`,
    () => `http://2130706433:${forbiddenPort}/`,
    () => `http://0x7f.1:${forbiddenPort}/`,
    () => `http://[::ffff:127.0.0.1]:${forbiddenPort}/`,
    () => 'http://10.0.0.1/',
    () => 'http://192.168.0.1/',
    () => 'http://169.254.169.254/latest/meta-data',
    () => 'http://[fd00::1]/',
    () => 'http://0.0.0.0/',
  ])('refuses %#', async (url) => {
    await expect(safeFetch(url())).rejects.toMatchObject(refused);
    expect(forbiddenHits).toBe(0);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    await expect(safeFetch('file:///etc/passwd')).rejects.toMatchObject({
      code: 'URL_NOT_ALLOWED',
      message: 'Only http and https URLs are allowed',
    });
    await expect(safeFetch('ftp://example.com/a.pdf')).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    await expect(safeFetch(`http://user:pw@127.0.0.1:${allowedPort}/manual`, testPolicy)).rejects.toMatchObject({
      code: 'URL_NOT_ALLOWED',
    });
    await expect(safeFetch('not a url')).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Invalid URL format',
    });
  });

  it('refuses a host when any of its addresses is private', async () => {
    const resolveHost = async () => ['8.8.8.8', '127.0.0.1'];
    await expect(safeFetch('http://mixed.test/', { resolveHost })).rejects.toMatchObject(refused);
  });
});

describe('safeFetch with a reachable server', () => {
  it('downloads, names the file and sends no credentials', async () => {
    const file = await safeFetch(`http://127.0.0.1:${allowedPort}/manual`, testPolicy);
    expect(file).toMatchObject({
      fileName: 'Pump manual.pdf',
      contentType: 'application/pdf',
      url: `http://127.0.0.1:${allowedPort}/manual`,
    });
    expect(file.bytes.toString()).toBe('%PDF-1.7 pretend');
    expect(lastHeaders.authorization).toBeUndefined();
    expect(lastHeaders.cookie).toBeUndefined();
  });

  it.each([
    () => `http://127.0.0.1:${forbiddenPort}/`,
    () => `http://localhost:${forbiddenPort}/`,
    () => 'http://169.254.169.254/latest/meta-data',
    () => 'http://[::1]/',
  ])('refuses a redirect to a forbidden address, on the hop (%#)', async (target) => {
    const url = `http://127.0.0.1:${allowedPort}/redirect?to=${encodeURIComponent(target())}`;
    await expect(safeFetch(url, testPolicy)).rejects.toMatchObject(refused);
    expect(forbiddenHits).toBe(0);
  });

  it('follows up to 5 redirects and no more', async () => {
    const file = await safeFetch(`http://127.0.0.1:${allowedPort}/chain/4`, testPolicy);
    expect(file.url).toBe(`http://127.0.0.1:${allowedPort}/manual`);
    await expect(safeFetch(`http://127.0.0.1:${allowedPort}/chain/5`, testPolicy)).rejects.toMatchObject({
      code: 'FETCH_FAILED',
      message: 'The URL redirected more than 5 times',
    });
  });

  it('connects to the vetted address, never to a second DNS answer', async () => {
    let calls = 0;
    const resolveHost = async () => (calls++ === 0 ? ['127.0.0.1'] : ['10.0.0.1']);
    const file = await safeFetch(`http://files.test:${allowedPort}/manual`, { ...testPolicy, resolveHost });
    expect(file.fileName).toBe('Pump manual.pdf');
    expect(lastHeaders.host).toBe(`files.test:${allowedPort}`);
    expect(calls).toBe(1);
  });

  it('cuts off bodies over the size limit, declared or not', async () => {
    for (const path of ['/big', '/big-chunked']) {
      await expect(
        safeFetch(`http://127.0.0.1:${allowedPort}${path}`, { ...testPolicy, maxBytes: 1024 * 1024 }),
      ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The file is larger than 1 MB' });
    }
  });

  it('gives up after the time limit', async () => {
    await expect(
      safeFetch(`http://127.0.0.1:${allowedPort}/slow`, { ...testPolicy, timeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'FETCH_TIMEOUT', message: 'The URL did not answer within 300 ms' });
  });

  it('reports an error status and an unknown host', async () => {
    await expect(safeFetch(`http://127.0.0.1:${allowedPort}/nothing`, testPolicy)).rejects.toMatchObject({
      code: 'FETCH_FAILED',
      message: 'The URL answered HTTP 404',
    });
    await expect(safeFetch('http://nowhere.invalid/', { resolveHost: async () => [] })).rejects.toMatchObject({
      code: 'FETCH_FAILED',
      message: 'Could not resolve nowhere.invalid',
    });
  });
});
