import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test-support/test-server.js';

let app: FastifyInstance;
let auth: { authorization: string };
let base: string;

type Res = { statusCode: number; headers: Record<string, unknown>; json: () => any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Res> {
  return app.inject({
    method,
    url: `${base}/${path}`,
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
}
const get = (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers);
const ids = (res: Res) => (res.json() as { id: string }[]).map((r) => r.id);

const jobs = [
  {
    id: 'j1',
    user_id: 'u1',
    title: 'AC Unit Repair',
    description: 'Compressor noise',
    status: 'pending',
    priority: 'high',
    created_at: 1000,
  },
  {
    id: 'j2',
    user_id: 'u1',
    title: 'Boiler check',
    description: 'Annual service, 50% done',
    status: 'in-progress',
    priority: 'low',
    created_at: 2000,
  },
  {
    id: 'j3',
    user_id: 'u2',
    title: 'Pump repair',
    description: 'Leak at seal',
    status: 'completed',
    priority: 'medium',
    created_at: 3000,
  },
  {
    id: 'j4',
    user_id: 'u2',
    title: 'ac filter swap',
    description: 'x y, (z)',
    status: 'pending',
    priority: 'medium',
    created_at: 4000,
  },
];

beforeAll(async () => {
  const built = await buildTestApp();
  app = built.app;
  auth = { authorization: `Bearer ${built.serviceKey}` };
  base = `/api/db/${built.projectId}/rest/v1`;
  const res = await call('POST', 'jobs', jobs, { prefer: 'return=representation' });
  expect(res.statusCode).toBe(201);
});

describe('GET filters', () => {
  const cases: [string, string[]][] = [
    ['jobs?user_id=eq.u1', ['j1', 'j2']],
    ['jobs?status=neq.pending', ['j2', 'j3']],
    ['jobs?created_at=gt.2000', ['j3', 'j4']],
    ['jobs?created_at=gte.2000', ['j2', 'j3', 'j4']],
    ['jobs?created_at=lt.2000', ['j1']],
    ['jobs?created_at=lte.2000', ['j1', 'j2']],
    ['jobs?title=like.%25repair', ['j3']],
    ['jobs?title=ilike.%25REPAIR', ['j1', 'j3']],
    ['jobs?title=ilike.ac%25', ['j1', 'j4']],
    ['jobs?description=like.%2550\\%25%25', ['j2']],
    ['jobs?id=in.(j1,j3,nope)', ['j1', 'j3']],
    ['jobs?id=not.in.(j1,j3)', ['j2', 'j4']],
    ['jobs?id=in.()', []],
    ['jobs?status=not.pending', ['j2', 'j3']],
    ['jobs?created_at=not.gt.2000', ['j1', 'j2']],
    ['jobs?title=not.like.%25a%25', ['j2']],
    ['jobs?or=(user_id=eq.u2,priority=eq.high)', ['j1', 'j3', 'j4']],
    ['jobs?or=(user_id=eq.u1%26status=eq.pending,and=(created_at=gt.1000,priority=eq.medium))', ['j1', 'j3', 'j4']],
    ['jobs?and=(created_at=gte.2000,created_at=lte.3000)', ['j2', 'j3']],
    ['jobs?or=(and=(user_id=eq.u2,or=(priority=eq.low,status=eq.completed)),id=eq.j1)', ['j1', 'j3']],
    ['jobs?description=eq.x+y%2C+(z)', ['j4']],
    ['jobs?description=in.("x y, (z)",other)', ['j4']],
    ['jobs?user_id=eq.u1&priority=eq.low', ['j2']],
  ];
  it.each(cases)('%s', async (path, expected) => {
    const res = await get(`${path}${path.includes('?') ? '&' : '?'}order=id`);
    expect(res.statusCode, res.json().message).toBe(200);
    expect(ids(res)).toEqual(expected);
  });

  it('is.null, eq.null, neq.null and is on flags', async () => {
    await call('POST', 'users', [
      { id: 'a@x.io', email: 'a@x.io', email_verified: 1, phone: null },
      { id: 'b@x.io', email: 'b@x.io', email_verified: false, phone: '555' },
    ]);
    expect(ids(await get('users?phone=is.null'))).toEqual(['a@x.io']);
    expect(ids(await get('users?phone=eq.null'))).toEqual(['a@x.io']);
    expect(ids(await get('users?phone=neq.null'))).toEqual(['b@x.io']);
    expect(ids(await get('users?phone=not.is.null'))).toEqual(['b@x.io']);
    expect(ids(await get('users?email_verified=is.1'))).toEqual(['a@x.io']);
    expect(ids(await get('users?email_verified=is.false'))).toEqual(['b@x.io']);
    expect(ids(await get('users?email_verified=eq.true'))).toEqual(['a@x.io']);
    expect(ids(await get('users?phone=not.null'))).toEqual(['b@x.io']);
  });
});

describe('GET shape', () => {
  it('select, order, limit, offset', async () => {
    const res = await get('jobs?select=id,title&order=createdAt.desc&limit=2&offset=1');
    expect(res.json()).toEqual([
      { id: 'j3', title: 'Pump repair' },
      { id: 'j2', title: 'Boiler check' },
    ]);
  });

  it('a star beside known columns answers every column', async () => {
    const [all] = (await get('jobs?select=*&id=eq.j1')).json();
    expect((await get('jobs?select=*,title&id=eq.j1')).json()).toEqual([all]);
  });

  it('orders by several columns with nulls placement', async () => {
    const res = await get('jobs?order=priority.asc,created_at.desc.nullslast&select=id');
    expect(ids(res)).toEqual(['j1', 'j2', 'j4', 'j3']);
  });

  it('counts with Prefer count=exact and Content-Range', async () => {
    const res = await get('jobs?select=id&user_id=eq.u2&limit=1', { prefer: 'count=exact' });
    expect(res.headers['content-range']).toBe('0-0/2');
    const none = await get('jobs?select=id&user_id=eq.nobody', { prefer: 'count=exact' });
    expect(none.headers['content-range']).toBe('*/0');
    const paged = await get('jobs?select=id&offset=2', { prefer: 'count=exact' });
    expect(paged.headers['content-range']).toBe('2-3/4');
  });

  it('pages with a cursor (keyset after the row with that id)', async () => {
    expect(ids(await get('jobs?order=created_at.desc&cursor=j3&limit=10'))).toEqual(['j2', 'j1']);
    expect(ids(await get('jobs?cursor=j2&limit=1'))).toEqual(['j3']);
    expect(ids(await get('jobs?order=priority,created_at&cursor=j2'))).toEqual(['j3', 'j4']);
  });

  it('get by id returns an array of one, or an empty array', async () => {
    expect((await get('jobs?id=eq.j2&limit=1')).json()).toMatchObject([
      { id: 'j2', created_at: 2000, priority: 'low' },
    ]);
    expect((await get('jobs?id=eq.missing&limit=1')).json()).toEqual([]);
  });
});

describe('POST', () => {
  it('creates one row with a generated 32-hex id and server timestamps', async () => {
    const before = Date.now();
    const res = await call('POST', 'jobs', {
      user_id: 'u3',
      title: 'T',
      description: 'D',
      created_at: {},
      updated_at: {},
    });
    expect(res.statusCode).toBe(201);
    const [row] = res.json();
    expect(row.id).toMatch(/^[0-9a-f]{32}$/);
    expect(row.status).toBe('pending');
    expect(row.created_at).toBeGreaterThanOrEqual(before - 1000);
  });

  it('upserts on the id by default and on another unique column, updating only sent columns', async () => {
    const first = await call('POST', 'user_roles?on_conflict=userId', {
      id: 'role_1',
      user_id: 'c@x.io',
      role: 'viewer',
      assigned_by: 'a@x.io',
    });
    expect(first.statusCode).toBe(201);
    const second = await call('POST', 'user_roles?on_conflict=userId', {
      id: 'role_other',
      user_id: 'c@x.io',
      role: 'manager',
    });
    expect(second.json()).toMatchObject([{ id: 'role_1', role: 'manager', assigned_by: 'a@x.io' }]);
    const byId = await call('POST', 'jobs?on_conflict=id', [
      { id: 'j1', status: 'completed', user_id: 'u1', title: 'AC Unit Repair', description: 'Compressor noise' },
    ]);
    expect(byId.json()).toMatchObject([{ id: 'j1', status: 'completed', created_at: 1000 }]);
    await call('PATCH', 'jobs?id=eq.j1', { status: 'pending' });
  });

  it('timestamps stay the server default when sent as {} in an upsert', async () => {
    const res = await call('POST', 'release_versions?on_conflict=id', {
      id: 'ver_1',
      version_name: 'V1',
      release_year: 2024,
      created_at: {},
      updated_at: {},
    });
    expect(new Date(res.json()[0].created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses unknown columns, objects in plain columns and bad types with 400, writing nothing', async () => {
    const unknown = await call('POST', 'jobs', [
      { id: 'ok1', user_id: 'u', title: 't', description: 'd' },
      { id: 'bad', nope: 1 },
    ]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      error: "Unknown column 'nope' in body of table 'jobs'",
      message: "Unknown column 'nope' in body of table 'jobs'",
      code: 'UNKNOWN_COLUMN',
    });
    expect((await call('POST', 'jobs', { user_id: 'u', title: { a: 1 }, description: 'd' })).json().code).toBe(
      'INVALID_VALUE',
    );
    expect(
      (await call('POST', 'jobs', { user_id: 'u', title: 't', description: 'd', created_at: 'yesterday' })).json().code,
    ).toBe('INVALID_VALUE');
    const partial = await call('POST', 'jobs', [
      { id: 'ok2', user_id: 'u', title: 't', description: 'd' },
      { id: 'ok3', user_id: 'u', title: 't', description: 'd', status: 'weird' },
    ]);
    expect(partial.statusCode).toBe(400);
    expect(ids(await get('jobs?id=in.(ok1,ok2,ok3)'))).toEqual([]);
  });

  it('answers 409 on a duplicate id and 400 on an empty array or a non-object', async () => {
    expect((await call('POST', 'jobs', { id: 'j1', user_id: 'u', title: 't', description: 'd' })).statusCode).toBe(409);
    expect((await call('POST', 'jobs', [])).json().code).toBe('INVALID_BODY');
    expect((await call('POST', 'jobs', 'text')).json().code).toBe('INVALID_BODY');
    expect((await call('POST', 'jobs', { user_id: 'u' })).json()).toMatchObject({ code: 'INVALID_VALUE' });
  });
});

describe('PATCH and DELETE', () => {
  it('updates by filter and sets updated_at', async () => {
    const res = await call('PATCH', 'jobs?user_id=eq.u2&status=eq.pending', { priority: 'high' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject([{ id: 'j4', priority: 'high' }]);
    expect(res.json()[0].updated_at).toBeGreaterThan(4000);
  });

  it("answers 'Record with id {id} not found.' for a missing id", async () => {
    const res = await call('PATCH', 'jobs?id=eq.nope', { status: 'completed' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: 'Record with id nope not found.',
      message: 'Record with id nope not found.',
      code: 'NOT_FOUND',
    });
  });

  it('refuses an unfiltered update or delete', async () => {
    expect((await call('PATCH', 'jobs', { status: 'completed' })).json().code).toBe('FILTER_REQUIRED');
    expect((await call('DELETE', 'jobs?select=*')).json().code).toBe('FILTER_REQUIRED');
    expect((await get('jobs?select=id')).json().length).toBeGreaterThanOrEqual(4);
  });

  it('deletes by filter, with the JSON content type and no body', async () => {
    await call('POST', 'jobs', [
      { id: 'd1', user_id: 'del', title: 't', description: 'd' },
      { id: 'd2', user_id: 'del', title: 't', description: 'd' },
    ]);
    const res = await call('DELETE', 'jobs?select=*&user_id=eq.del');
    expect(res.statusCode).toBe(200);
    expect(ids(res).sort()).toEqual(['d1', 'd2']);
    expect((await get('jobs?user_id=eq.del')).json()).toEqual([]);
  });
});

describe('errors', () => {
  it.each([
    ['jobs?nope=eq.1', 400, 'UNKNOWN_COLUMN', "Unknown column 'nope' in filter of table 'jobs'"],
    ['jobs?select=id,secret', 400, 'UNKNOWN_COLUMN', "Unknown column 'secret' in select of table 'jobs'"],
    ['jobs?select=*,secret', 400, 'UNKNOWN_COLUMN', "Unknown column 'secret' in select of table 'jobs'"],
    ['jobs?select=*,pg_sleep(2)', 400, 'INVALID_PARAMETER', "Invalid column name 'pg_sleep(2)' in select"],
    ['jobs?select=id,pg_sleep(2)', 400, 'INVALID_PARAMETER', "Invalid column name 'pg_sleep(2)' in select"],
    ['jobs?order=secret.desc', 400, 'UNKNOWN_COLUMN', "Unknown column 'secret' in order of table 'jobs'"],
    ['jobs?order=id.sideways', 400, 'INVALID_PARAMETER', "Invalid order direction 'sideways' in order"],
    ['jobs?limit=-1', 400, 'INVALID_PARAMETER', 'limit must be a non-negative integer'],
    ['jobs?offset=abc', 400, 'INVALID_PARAMETER', 'offset must be a non-negative integer'],
    ['jobs?id=bogus.1', 400, 'INVALID_FILTER', "Invalid filter on 'id': 'bogus.1' is not <operator>.<value>"],
    ['jobs?id=j1', 400, 'INVALID_FILTER', "Invalid filter on 'id': 'j1' is not <operator>.<value>"],
    ['jobs?or=(id=eq.1', 400, 'INVALID_FILTER', 'Invalid or group: expected (...)'],
    ['jobs?created_at=gt.soon', 400, 'INVALID_VALUE', undefined],
    ['secrets', 400, 'UNKNOWN_TABLE', "Unknown table 'secrets'"],
    ['schema_migrations', 400, 'UNKNOWN_TABLE', "Unknown table 'schema_migrations'"],
  ])('GET %s -> %i %s', async (path, status, code, message) => {
    const res = await get(path);
    expect(res.statusCode).toBe(status);
    expect(res.json().code).toBe(code);
    if (message) expect(res.json().message).toBe(message);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('answers 404 for another project id', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/db/other/rest/v1/jobs', headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: "Project 'other' not found",
      message: "Project 'other' not found",
      code: 'PROJECT_NOT_FOUND',
    });
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `${base}/jobs`,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_BODY');
  });

  it('refuses callers without the service key, leaking no rows', async () => {
    const anonymous = await app.inject({ method: 'GET', url: `${base}/jobs` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      error: 'Authentication required',
      message: 'Authentication required',
      code: 'UNAUTHORIZED',
    });
    const forged = await app.inject({
      method: 'GET',
      url: `${base}/jobs`,
      headers: { authorization: 'Bearer blnk_sk_test_not_the_key' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.body).not.toContain('j1');
    for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: `${base}/jobs?id=eq.j1`, payload: { status: 'completed' } });
      expect(res.statusCode).toBe(401);
    }
    expect((await get('jobs?id=eq.j1')).json()[0].status).toBe('pending');
  });

  it('exposes Content-Range to browsers on allowed origins', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: `${base}/jobs`,
      headers: {
        origin: 'http://127.0.0.1:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,content-type,prefer',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    const got = await get('jobs?select=id', { origin: 'http://127.0.0.1:3000', prefer: 'count=exact' });
    expect(got.headers['access-control-expose-headers']).toContain('Content-Range');
    const foreign = await get('jobs?select=id', { origin: 'https://evil.example' });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
