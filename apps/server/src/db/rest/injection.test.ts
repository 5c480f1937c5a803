import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test-support/test-server.js';

// Classic payloads thrown at every part of a REST request. Each must answer a clean 4xx
// (or, as a bound value, match nothing), and the data must be untouched afterwards.
const payloads = [
  "'; DROP TABLE jobs; --",
  '" OR "1"="1',
  "x' OR '1'='1",
  '1; DELETE FROM jobs',
  'id); DROP TABLE jobs; --',
  'id"; DROP TABLE jobs; --',
  '1 UNION SELECT email, 1, 1, 1, 1, 1, 1, 1 FROM users --',
  'pg_sleep(5)',
  '$1',
  '\\x00',
  '(select 1)',
];

let app: FastifyInstance;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  const built = await buildTestApp();
  app = built.app;
  base = `/api/db/${built.projectId}/rest/v1`;
  headers = { authorization: `Bearer ${built.serviceKey}`, 'content-type': 'application/json' };
  await app.inject({
    method: 'POST',
    url: `${base}/jobs`,
    headers,
    payload: [{ id: 'keep', user_id: 'u', title: 't', description: 'd' }],
  });
  await app.inject({
    method: 'POST',
    url: `${base}/users`,
    headers,
    payload: [{ id: 'secret@x.io', email: 'secret@x.io' }],
  });
});

async function expectIntact() {
  const res = await app.inject({ method: 'GET', url: `${base}/jobs?select=id`, headers });
  expect(res.json()).toEqual([{ id: 'keep' }]);
}

const q = encodeURIComponent;
const requests: [string, string, string, unknown?][] = payloads.flatMap((p): [string, string, string, unknown?][] => [
  ['table', 'GET', `${q(p)}`],
  ['select', 'GET', `jobs?select=${q(`id,${p}`)}`],
  ['order', 'GET', `jobs?order=${q(p)}`],
  ['order direction', 'GET', `jobs?order=${q(`id.${p}`)}`],
  ['filter column', 'GET', `jobs?${q(p)}=eq.1`],
  ...['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'is', 'not'].map((op): [string, string, string] => [
    'filter value',
    'GET',
    `jobs?title=${op}.${q(p)}`,
  ]),
  ['in list', 'GET', `jobs?id=in.(${q(p)},keep)`],
  ['not in list', 'GET', `jobs?id=not.in.(${q(p)})`],
  ['or group', 'GET', `jobs?or=${q(`(id=eq.${p},title=eq.${p})`)}`],
  ['or group column', 'GET', `jobs?or=${q(`(${p}=eq.1)`)}`],
  ['nested group', 'GET', `jobs?and=${q(`(or=(id=eq.${p}),id=neq.${p})`)}`],
  ['cursor', 'GET', `jobs?cursor=${q(p)}&order=title`],
  ['limit', 'GET', `jobs?limit=${q(p)}`],
  ['on_conflict', 'POST', `jobs?on_conflict=${q(p)}`, { id: 'keep', title: 'x' }],
  ['body key', 'POST', 'jobs', { [p]: 1, user_id: 'u', title: 't', description: 'd' }],
  ['body value', 'POST', 'jobs?select=id', { id: `inj-${payloads.indexOf(p)}`, user_id: p, title: p, description: p }],
  ['patch key', 'PATCH', 'jobs?id=eq.keep', { [p]: 'x' }],
  ['patch filter', 'PATCH', `jobs?id=eq.${q(p)}`, { title: 't' }],
  ['delete filter', 'DELETE', `jobs?id=eq.${q(p)}`],
  ['delete group', 'DELETE', `jobs?or=${q(`(id=eq.${p})`)}`],
]);

describe('SQL injection in every part of a request', () => {
  it.each(requests)('%s: %s %s', async (_part, method, path, body) => {
    const res = await app.inject({
      method: method as 'GET',
      url: `${base}/${path}`,
      headers,
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (res.statusCode >= 400) {
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(res.body).not.toContain('secret@x.io');
    } else if (method === 'GET') {
      // A hostile value is only ever compared as data, never run: it leaks no other table.
      expect(res.body).not.toContain('secret@x.io');
    }
    if (path.includes('body value') || (method === 'POST' && res.statusCode === 201)) {
      await app.inject({ method: 'DELETE', url: `${base}/jobs?id=like.inj-%25`, headers });
    }
    await expectIntact();
  });

  it('stores hostile values verbatim as data', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `${base}/jobs`,
      headers,
      payload: { id: 'verbatim', user_id: 'u', title: payloads[0], description: payloads[6] },
    });
    expect(res.json()[0]).toMatchObject({ title: payloads[0], description: payloads[6] });
    await app.inject({ method: 'DELETE', url: `${base}/jobs?id=eq.verbatim`, headers });
    await expectIntact();
  });
});
