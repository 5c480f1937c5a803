// The HTTP core against a recording stand-in for fetch: what it sends and how it reads
// answers (PLATFORM_API.md §1.1–1.6). The db module is tested against the real server.
import { describe, expect, it } from 'vitest';
import { FieldAssistError } from './errors.js';
import { createHttpCore, type FetchLike, type HttpCoreOptions } from './http.js';

type Sent = { url: string; init: RequestInit };

function recorder(...responses: Response[]) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    sent.push({ url, init });
    const response = responses.shift();
    if (!response) throw new TypeError('fetch failed');
    return response;
  };
  return { sent, fetch };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });

function core(fetch: FetchLike, options: Partial<HttpCoreOptions> = {}) {
  return createHttpCore({ baseUrl: 'http://h:1/', fetch, ...options });
}

async function failure(promise: Promise<unknown>): Promise<FieldAssistError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FieldAssistError);
  return error as FieldAssistError;
}

describe('createHttpCore', () => {
  it("carries a 429's Retry-After (seconds or a date) on the error, so callers wait as asked", async () => {
    const limited = (retryAfter: string) =>
      new Response(
        JSON.stringify({ error: 'Too many attempts. Please wait a moment and try again.', code: 'RATE_LIMITED' }),
        {
          status: 429,
          headers: { 'Content-Type': 'application/json', 'Retry-After': retryAfter },
        },
      );
    const { fetch } = recorder(
      limited('7'),
      limited(new Date(Date.now() + 60_000).toUTCString()),
      json({ error: 'x' }, 503),
    );
    const http = core(fetch);
    const first = await failure(http.request({ path: '/ai/p/object' }));
    expect(first).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryable: true, retryAfterMs: 7000 });
    expect((await failure(http.request({ path: '/ai/p/object' }))).retryAfterMs).toBeGreaterThan(50_000);
    expect((await failure(http.request({ path: '/ai/p/object' }))).retryAfterMs).toBeUndefined();
  });

  it('sends JSON with the content type on every method and the secret key as bearer', async () => {
    const { sent, fetch } = recorder(json([]), json({ ok: 1 }));
    const http = core(fetch, { secretKey: 'sk', getAccessToken: () => 'user-token' });
    await http.request({ path: '/db/p/rest/v1/t', query: { select: '*' } });
    await http.request({ method: 'POST', path: '/x', body: { a: 1 }, headers: { Prefer: 'return=representation' } });
    expect(sent[0]?.url).toBe('http://h:1/api/db/p/rest/v1/t?select=*');
    expect(sent[0]?.init.headers).toEqual({ 'Content-Type': 'application/json', Authorization: 'Bearer sk' });
    expect(sent[0]?.init.body).toBeUndefined();
    expect(sent[1]?.init.body).toBe('{"a":1}');
    expect(sent[1]?.init.headers).toMatchObject({ Prefer: 'return=representation' });
  });

  it('uses the access token when there is no secret key, and nothing when there is neither', async () => {
    const { sent, fetch } = recorder(json([]), json([]));
    await core(fetch, { getAccessToken: async () => 'at' }).request({ path: '/a' });
    await core(fetch).request({ path: '/a' });
    expect(sent[0]?.init.headers).toMatchObject({ Authorization: 'Bearer at' });
    expect(sent[1]?.init.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('decodes success bodies by content type: JSON, text, otherwise a Blob', async () => {
    const { fetch } = recorder(
      json({ a: 1 }),
      new Response('hi', { headers: { 'Content-Type': 'text/plain' } }),
      new Response(null, { status: 204 }),
    );
    const http = core(fetch);
    expect((await http.request({ path: '/a' })).data).toEqual({ a: 1 });
    expect((await http.request({ path: '/a' })).data).toBe('hi');
    expect((await http.request({ path: '/a' })).data).toBeInstanceOf(Blob);
  });

  it('maps the server error body to FieldAssistError', async () => {
    const { fetch } = recorder(
      json({ error: 'Unknown table', message: 'Unknown table', code: 'UNKNOWN_TABLE' }, 400),
      json({ error: { message: 'Nested', code: 'NESTED' } }, 500),
      json({ error: 'Bad', details: 'really' }, 400),
      new Response('plain failure', { status: 503 }),
      json({}, 401),
    );
    const http = core(fetch);
    const e1 = await failure(http.request({ path: '/a' }));
    expect([e1.status, e1.code, e1.message]).toEqual([400, 'UNKNOWN_TABLE', 'Unknown table']);
    expect(e1.details).toEqual({ error: 'Unknown table', message: 'Unknown table', code: 'UNKNOWN_TABLE' });
    const e2 = await failure(http.request({ path: '/a' }));
    expect([e2.status, e2.code, e2.message]).toEqual([500, 'NESTED', 'Nested']);
    const e3 = await failure(http.request({ path: '/a' }));
    expect([e3.code, e3.message]).toEqual(['VALIDATION_ERROR', 'Bad: really']);
    const e4 = await failure(http.request({ path: '/a' }));
    expect([e4.status, e4.code, e4.message]).toEqual([503, 'NETWORK_ERROR', 'plain failure']);
    const e5 = await failure(http.request({ path: '/a' }));
    expect([e5.status, e5.code, e5.message]).toEqual([401, 'UNAUTHORIZED', 'HTTP 401']);
  });

  it('turns a failed fetch or an unreadable JSON body into a status-0 NETWORK_ERROR', async () => {
    const { fetch } = recorder(new Response('', { headers: { 'Content-Type': 'application/json' } }));
    const http = core(fetch);
    const unreadable = await failure(http.request({ path: '/a' }));
    expect([unreadable.status, unreadable.code]).toEqual([0, 'NETWORK_ERROR']);
    expect(unreadable.message).toMatch(/^Network request failed: /);
    const offline = await failure(http.request({ path: '/a' }));
    expect([offline.status, offline.code, offline.message]).toEqual([
      0,
      'NETWORK_ERROR',
      'Network request failed: fetch failed',
    ]);
  });

  it('refreshes once after a 401 sent with a user token and retries with the new token', async () => {
    const { sent, fetch } = recorder(json({ code: 'TOKEN_EXPIRED' }, 401), json({ ok: true }));
    const http = core(fetch, { getAccessToken: () => 'old', refreshAccessToken: async () => 'new' });
    expect((await http.request({ path: '/a' })).data).toEqual({ ok: true });
    expect(sent.map((s) => (s.init.headers as Record<string, string>).Authorization)).toEqual([
      'Bearer old',
      'Bearer new',
    ]);
  });

  it('sends FormData as is, without the JSON content type', async () => {
    const { sent, fetch } = recorder(json({}));
    const form = new FormData();
    form.set('path', 'a.txt');
    await core(fetch).request({ method: 'POST', path: '/storage/p/upload', body: form });
    expect(sent[0]?.init.body).toBe(form);
    expect(sent[0]?.init.headers).toEqual({});
  });
});
