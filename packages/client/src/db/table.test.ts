// The exact requests each table method sends (PLATFORM_API.md §3.4), recorded by a
// stand-in fetch. What the server does with them: packages/client/test/db.test.ts.
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import type { FetchLike } from '../http.js';

type Sent = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
};

function recordingClient(answer: (sent: Sent) => Response = () => json([{ id: 'r1', user_id: 'u' }])) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input);
    const record: Sent = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(record);
    return answer(record);
  };
  const client = createClient({ projectId: 'p1', baseUrl: 'http://h', secretKey: 'sk', fetch });
  return { sent, db: client.db };
}

function json(body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json', ...headers } });
}

const PATH = '/api/db/p1/rest/v1/todo_items';
const REPRESENTATION = {
  'Content-Type': 'application/json',
  Authorization: 'Bearer sk',
  Prefer: 'return=representation',
};
const PLAIN = { 'Content-Type': 'application/json', Authorization: 'Bearer sk' };

describe('table requests', () => {
  it('create and createMany: POST snake_cased rows with ids, Prefer return=representation', async () => {
    const { sent, db } = recordingClient();
    const row = await db.table('todoItems').create({ userId: 'u', meta: { someKey: 1 } });
    await db.table('todoItems').createMany([{ id: 'given', isDone: false }, { id: '' }]);
    expect(row).toEqual({ id: 'r1', userId: 'u' });
    expect(sent[0]).toMatchObject({ method: 'POST', path: PATH, query: {}, headers: REPRESENTATION });
    expect(sent[0]?.body).toEqual({ user_id: 'u', meta: { some_key: 1 }, id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const [given, generated] = sent[1]?.body as { id: string }[];
    expect(given).toEqual({ id: 'given', is_done: false });
    expect(generated?.id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('upsert: on_conflict defaults to id; a camelCase target is snake-cased', async () => {
    const { sent, db } = recordingClient();
    await db.table('todoItems').upsert({ id: 'x' });
    await db.table('todoItems').upsertMany([{ userId: 'u' }], { onConflict: 'userId', returning: false });
    expect(sent[0]).toMatchObject({
      method: 'POST',
      query: { on_conflict: 'id' },
      headers: REPRESENTATION,
      body: { id: 'x' },
    });
    expect(sent[1]).toMatchObject({ query: { on_conflict: 'user_id' }, headers: PLAIN });
  });

  it('get: ?id=eq.<id>&limit=1 without select; null when empty', async () => {
    const { sent, db } = recordingClient(() => json([]));
    expect(await db.table('todoItems').get('a b')).toBeNull();
    expect(sent[0]).toMatchObject({ method: 'GET', query: { id: 'eq.a b', limit: '1' }, headers: PLAIN });
  });

  it('update: PATCH ?id=eq.<id>; an empty answer throws Record with id … not found', async () => {
    const { sent, db } = recordingClient(() => json([]));
    const error = await db
      .table('todoItems')
      .update('t1', { isDone: true })
      .catch((e: unknown) => e);
    expect(sent[0]).toMatchObject({
      method: 'PATCH',
      query: { id: 'eq.t1' },
      headers: REPRESENTATION,
      body: { is_done: true },
    });
    expect(error).toMatchObject({
      name: 'FieldAssistError',
      message: 'Record with id t1 not found',
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('updateMany: one PATCH per row, id moved from the body to the query', async () => {
    const { sent, db } = recordingClient();
    await db.table('todoItems').updateMany([
      { id: 'a', title: 'A' },
      { id: 'b', title: 'B' },
    ]);
    expect(sent.map((s) => [s.method, s.query.id, s.body])).toEqual([
      ['PATCH', 'eq.a', { title: 'A' }],
      ['PATCH', 'eq.b', { title: 'B' }],
    ]);
  });

  it('delete and deleteMany: DELETE without Prefer; deleteMany sends select=* and the filters', async () => {
    const { sent, db } = recordingClient(() => new Response(null, { status: 204 }));
    await db.table('todoItems').delete('t1');
    await db.table('todoItems').deleteMany({ where: { isDone: true } });
    expect(sent[0]).toMatchObject({ method: 'DELETE', query: { id: 'eq.t1' }, headers: PLAIN, body: undefined });
    expect(sent[1]).toMatchObject({ method: 'DELETE', query: { select: '*', is_done: 'eq.1' }, headers: PLAIN });
  });

  it('count and exists: select=id with Prefer count=exact, total from Content-Range', async () => {
    const { sent, db } = recordingClient(() => json([{ id: 'a' }], { 'Content-Range': '0-0/137' }));
    expect(await db.table('todoItems').count({ where: { userId: 'u' } })).toBe(137);
    expect(await db.table('todoItems').exists({ where: { userId: 'u' } })).toBe(true);
    expect(sent[0]).toMatchObject({
      method: 'GET',
      query: { select: 'id', user_id: 'eq.u' },
      headers: { ...PLAIN, Prefer: 'count=exact' },
    });
  });

  it('count falls back to the page length without a usable Content-Range', async () => {
    const { db } = recordingClient(() => json([{ id: 'a' }, { id: 'b' }], { 'Content-Range': '0-1/*' }));
    expect(await db.table('todoItems').count()).toBe(2);
  });

  it('sql and batch: POST /sql {query, params} and /batch {statements, mode}', async () => {
    const { sent, db } = recordingClient((s) =>
      s.path.endsWith('/sql')
        ? json({ rows: [{ user_id: 'u' }], columns: ['user_id'], rowCount: 1 })
        : json({ results: [{ rows: [{ a_b: 1 }], columns: ['a_b'], rowCount: 1 }], success: true }),
    );
    expect((await db.sql('SELECT * FROM t WHERE user_id = ?', ['u'])).rows).toEqual([{ userId: 'u' }]);
    expect((await db.batch([{ sql: 'SELECT 1', args: [] }])).results[0]?.rows).toEqual([{ aB: 1 }]);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/api/db/p1/sql',
      body: { query: 'SELECT * FROM t WHERE user_id = ?', params: ['u'] },
    });
    expect(sent[1]).toMatchObject({
      method: 'POST',
      path: '/api/db/p1/batch',
      body: { statements: [{ sql: 'SELECT 1', args: [] }], mode: 'write' },
    });
  });

  it('a batch answer without a results array is an Invalid response format error', async () => {
    const { db } = recordingClient(() => json({ success: true }));
    await expect(db.batch([{ sql: 'SELECT 1' }])).rejects.toMatchObject({
      message: 'Invalid response format',
      code: 'INVALID_RESPONSE',
    });
  });
});
