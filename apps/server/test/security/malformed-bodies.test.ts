import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SERVICE_KEY, buildTestApp } from '../../src/test-support/test-server.js';
import { type TestUser, signUpUser } from '../../src/test-support/users.js';

// Every route of the real app, read from its own route table, gets bodies that are broken
// (bad JSON, the wrong content type, over the size limit, cut-off multipart, JSON of the wrong
// shape, prototype-polluting keys) and broken query strings. Each must answer a 4xx with the one
// error body {error, message, code}; never a 500, never a hang.

interface Route {
  method: string;
  url: string;
}

const params: Record<string, string> = { projectId: 'fieldassist', table: 'jobs', provider: 'google' };

/** Reads `printRoutes({ commonPrefix: false })`: a tree of path segments, methods in brackets. */
function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const parent = stack[depth - 1] ?? '';
    const segment = match[2]!;
    const path =
      depth === 0 ? segment : `${parent}${parent.endsWith('/') || segment.startsWith('/') ? '' : '/'}${segment}`;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of match[3]!.split(', '))
      routes.push({ method, url: path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? 'x') });
  }
  return routes;
}

let app: FastifyInstance;
let admin: TestUser;
let routes: Route[];
const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };

beforeAll(async () => {
  ({ app } = await buildTestApp());
  admin = await signUpUser(app); // first account: admin
  routes = routesOf(app);
});

// Each request from its own address: the per-address limits are not what is measured here.
let address = 0;
const nextAddress = () => `10.77.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

async function send(route: Route, opts: Omit<InjectOptions, 'method' | 'url'> & { query?: string }) {
  const { query, ...rest } = opts;
  const res = await app.inject({
    method: route.method as 'POST',
    url: `${route.url}${query ?? ''}`,
    remoteAddress: nextAddress(),
    ...rest,
  });
  return res;
}

/**
 * What is wrong with an answer, or undefined when it is a clean one: a 4xx with the one error
 * body (JSON on /api routes), or with `allowSuccess` any answer below 500.
 */
function problemOf(route: Route, res: Awaited<ReturnType<typeof send>>, allowSuccess = false): string | undefined {
  const where = `${route.method} ${route.url} -> ${res.statusCode} ${res.body.slice(0, 160)}`;
  if (res.statusCode >= 500) return where;
  if (!allowSuccess && res.statusCode < 400) return where;
  // Outside /api (the hosted sign-in page without a built web app) an answer may be text.
  if (res.statusCode < 400 || route.method === 'HEAD' || !route.url.startsWith('/api/')) return undefined;
  if (!String(res.headers['content-type']).startsWith('application/json')) return `${where} (not JSON)`;
  const body = res.json();
  if (Object.keys(body).sort().join() !== 'code,error,message' || !/^[A-Z_]+$/.test(body.code))
    return `${where} (not the error body)`;
  return undefined;
}

// Routes with a body limit of their own, above the app's 5 MB (audio for transcription, file uploads).
const ownLimit = new Set([
  '/api/ai/fieldassist/transcribe',
  '/api/storage/fieldassist/upload',
  '/api/data/fieldassist/extract-from-blob',
]);
const writeMethods = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const withBody = () => routes.filter((r) => writeMethods.has(r.method) && r.url !== '*');
// Deleting one's own account is the one route where a well-formed body really acts.
const harmless = () => withBody().filter((r) => !(r.method === 'DELETE' && r.url === '/api/auth/account'));
const callers = { 'signed out': {}, 'the admin': () => admin.headers, 'the service key': service } as const;
const headersOf = (who: keyof typeof callers) => {
  const h = callers[who];
  return typeof h === 'function' ? h() : h;
};

it('finds every route of the app', () => {
  expect(routes.length).toBeGreaterThan(50);
  expect(routes).toContainEqual({ method: 'POST', url: '/api/storage/fieldassist/upload' });
  expect(routes).toContainEqual({ method: 'PATCH', url: '/api/db/fieldassist/rest/v1/jobs' });
  expect(routes).toContainEqual({ method: 'POST', url: '/api/auth/signin/magic/verify' });
});

describe.each(Object.keys(callers) as (keyof typeof callers)[])('as %s', (who) => {
  it('bad JSON is 400 on every route that takes a body', async () => {
    const problems: (string | undefined)[] = [];
    for (const route of withBody()) {
      for (const payload of ['{"email": "a@example.com", ', '{"a":1}}', '\u0000', 'nul', '{"a": NaN}']) {
        const res = await send(route, { headers: { ...headersOf(who), 'content-type': 'application/json' }, payload });
        problems.push(problemOf(route, res));
      }
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('a body over the size limit is 413 (or 415 where the type is wrong) on every route that takes one', async () => {
    const problems: (string | undefined)[] = [];
    const huge = Buffer.alloc(6 * 1024 * 1024 + 1, 'a');
    huge.write('{"a":"');
    huge.write('"}', huge.length - 2);
    for (const route of withBody()) {
      const res = await send(route, {
        headers: { ...headersOf(who), 'content-type': 'application/json' },
        payload: huge,
      });
      problems.push(problemOf(route, res));
      // Signed out, the 401 comes first; routes with a larger limit of their own (uploads, audio) read on and refuse the content.
      if (![401, 413, 415].includes(res.statusCode) && !ownLimit.has(route.url))
        problems.push(`${route.method} ${route.url} -> ${res.statusCode}, not 413`);
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('a content type the route does not read never causes a 500, and a refusal is the error body', async () => {
    const problems: (string | undefined)[] = [];
    for (const route of withBody()) {
      for (const [type, payload] of [
        ['text/plain', 'hello'],
        ['application/xml', '<a/>'],
        ['application/x-www-form-urlencoded', 'email=a%40example.com'],
        ['application/json; charset=utf-16', '{}'],
      ] as const) {
        const res = await send(route, { headers: { ...headersOf(who), 'content-type': type }, payload });
        // Routes that read no body (sign-out, verification links) may answer as usual; the OAuth
        // callback reads a form. A refusal must be the clean one.
        problems.push(problemOf(route, res, true));
      }
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('cut-off and malformed multipart is a clean 4xx on every route that takes a body', async () => {
    const problems: (string | undefined)[] = [];
    const boundary = '----attack';
    const bodies = [
      `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\nmanuals/x.pdf\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 cut here`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\n\r\n`,
      `--${boundary}--\r\n`,
      'not multipart at all',
      `--other\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nbytes\r\n--other--\r\n`,
    ];
    for (const route of withBody()) {
      for (const payload of bodies) {
        for (const type of [`multipart/form-data; boundary=${boundary}`, 'multipart/form-data']) {
          const res = await send(route, { headers: { ...headersOf(who), 'content-type': type }, payload });
          problems.push(problemOf(route, res));
        }
      }
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('well-formed JSON of the wrong shape never causes a 500', async () => {
    const problems: (string | undefined)[] = [];
    const shapes: string[] = [
      '[]',
      '[1,2]',
      '"text"',
      '123',
      'null',
      'true',
      '{}',
      '{"a":{"b":{"c":{"d":[[[[[[1]]]]]]}}}}',
      JSON.stringify({
        email: ['a@example.com'],
        password: { $ne: '' },
        query: 42,
        token: [],
        paths: 'x',
        question: 7,
        url: { href: 'x' },
        messages: 'hi',
        to: [1],
        refresh_token: {},
      }),
      JSON.stringify({ id: 'x'.repeat(100_000), title: '\u0000', user_id: '\ud800' }),
      `[${Array.from({ length: 2000 }, () => '{}').join(',')}]`,
    ];
    for (const route of harmless()) {
      for (const payload of shapes) {
        const res = await send(route, { headers: { ...headersOf(who), 'content-type': 'application/json' }, payload });
        problems.push(problemOf(route, res, true));
      }
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });

  it('prototype-polluting keys are refused', async () => {
    const problems: (string | undefined)[] = [];
    for (const route of harmless()) {
      for (const payload of ['{"__proto__":{"role":"admin"}}', '{"constructor":{"prototype":{"role":"admin"}}}']) {
        const res = await send(route, { headers: { ...headersOf(who), 'content-type': 'application/json' }, payload });
        problems.push(problemOf(route, res));
      }
    }
    expect(problems.filter(Boolean)).toEqual([]);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });

  it('broken query strings never cause a 500, on any route', async () => {
    const problems: (string | undefined)[] = [];
    const queries = [
      '?%',
      '?a=%E0%A4%A',
      '?limit=abc&offset=-1',
      '?select=*&order=%00',
      '?path=..%2F..%2Fetc%2Fpasswd',
      `?x=${'a'.repeat(8000)}`,
      '?channel[]=a&channel[]=b',
      '?id=eq.%F0%9F',
    ];
    for (const route of routes.filter(
      (r) => r.method !== 'OPTIONS' && r.url !== '*' && !(r.method === 'DELETE' && r.url === '/api/auth/account'),
    )) {
      for (const query of queries) {
        const res = await send(route, { headers: headersOf(who), query });
        problems.push(problemOf(route, res, true));
      }
    }
    expect(problems.filter(Boolean)).toEqual([]);
  });
});

it('the app still answers normally after all of it', async () => {
  const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: admin.headers });
  expect(res.statusCode).toBe(200);
});
