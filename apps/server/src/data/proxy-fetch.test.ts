import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyFetch } from './proxy-fetch.js';
import { startServer, type TestHttpServer } from './test-support/web-servers.js';

// Two "public" sites on two loopback ports (two origins), both allowed by the test policy.
let first: TestHttpServer;
let second: TestHttpServer;

const echo = (req: IncomingMessage, res: ServerResponse, body: Buffer) =>
  res
    .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify({ method: req.method, headers: req.headers, body: body.toString() }));

beforeAll(async () => {
  second = await startServer(echo);
  first = await startServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/elsewhere') res.writeHead(302, { location: second.url('/echo') }).end();
    else if (url.pathname === '/see-other') res.writeHead(303, { location: '/echo' }).end();
    else echo(req, res, body);
  });
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});

const policy = {
  isAllowedAddress: ({ address, port }: { address: string; port: number }) =>
    address === '127.0.0.1' && [first.port, second.port].includes(port),
};

describe('proxyFetch redirects', () => {
  it('keeps credentials on the same origin and drops them when a redirect leaves it', async () => {
    const headers = { authorization: 'Bearer parts-key', cookie: 'sid=1', 'x-trace': 't-1' };
    const same = await proxyFetch({ url: first.url('/echo'), headers }, policy);
    expect((same.body as { headers: object }).headers).toMatchObject(headers);
    const moved = await proxyFetch({ url: first.url('/elsewhere'), headers }, policy);
    const seen = (moved.body as { headers: Record<string, string> }).headers;
    expect(seen['x-trace']).toBe('t-1');
    expect(seen.authorization).toBeUndefined();
    expect(seen.cookie).toBeUndefined();
  });

  it('turns a POST into a GET without its body after a 303', async () => {
    const answer = await proxyFetch({ url: first.url('/see-other'), method: 'POST', body: { order: 7 } }, policy);
    expect(answer.body).toMatchObject({ method: 'GET', body: '' });
    expect((answer.body as { headers: object }).headers).not.toHaveProperty('content-type');
  });

  it('sends a string body as it is, with a text type unless one is given', async () => {
    const answer = await proxyFetch(
      {
        url: first.url('/echo'),
        method: 'POST',
        body: 'a=1&b=2',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
      policy,
    );
    expect(answer.body).toMatchObject({
      body: 'a=1&b=2',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const plain = await proxyFetch({ url: first.url('/echo'), method: 'PATCH', body: 'note' }, policy);
    expect(plain.body).toMatchObject({ method: 'PATCH', headers: { 'content-type': 'text/plain; charset=utf-8' } });
  });
});
