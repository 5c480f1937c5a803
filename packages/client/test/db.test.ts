// Every method of `client.db` against the real server (PLATFORM_API.md §3.4, §3.5), and
// how server refusals reach the app as FieldAssistError. Filters: db-filters.test.ts.
import { describe, expect, it } from 'vitest';
import { createClient, FieldAssistError } from '../src/index.js';
import { type Job, type Tables, unique, useServer } from './support.js';

const server = useServer();
const HEX_ID = /^[0-9a-f]{32}$/;

function newJob(userId: string, overrides: Partial<Job> = {}) {
  return { userId, title: 'Check pump', description: 'Pressure drops', priority: 'medium' as const, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<FieldAssistError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FieldAssistError);
  return error as FieldAssistError;
}

describe('create, get, list', () => {
  it('create sends snake_case, generates a 32-hex id and returns the camelCase row', async () => {
    const userId = unique('u');
    const job = await server.client.db.jobs.create(newJob(userId, { createdAt: 1234, updatedAt: 1234 }));
    expect(job).toMatchObject({ userId, title: 'Check pump', status: 'pending', priority: 'medium', createdAt: 1234 });
    expect(job.id).toMatch(HEX_ID);
    expect(await server.client.db.jobs.get(job.id)).toEqual(job);
  });

  it('create keeps a given id, even one that needs URL encoding, and sends Dates as ISO strings', async () => {
    const id = `${unique('ver')} a+b&c=d`;
    const at = new Date('2023-04-05T06:07:08.000Z');
    const version = await server.client.db.releaseVersions.create({
      id,
      versionName: '1.0',
      releaseYear: 2023,
      createdAt: at,
    });
    expect(version.id).toBe(id);
    expect(new Date(version.createdAt).toISOString()).toBe(at.toISOString());
    expect((await server.client.db.releaseVersions.get(id))?.versionName).toBe('1.0');
  });

  it('create with returning: false still resolves to the row', async () => {
    const job = await server.client.db.jobs.create(newJob(unique('u')), { returning: false });
    expect(job.id).toMatch(HEX_ID);
    expect(await server.client.db.jobs.get(job.id)).not.toBeNull();
  });

  it('createMany keeps given ids and generates the missing ones', async () => {
    const userId = unique('u');
    const rows = await server.client.db.jobs.createMany([
      newJob(userId, { id: `${userId}-1` }),
      newJob(userId, { title: 'Second' }),
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]?.id).toBe(`${userId}-1`);
    expect(rows[1]?.id).toMatch(HEX_ID);
    expect(await server.client.db.jobs.count({ where: { userId } })).toBe(2);
  });

  it('get answers null for a missing id', async () => {
    expect(await server.client.db.jobs.get(unique('missing'))).toBeNull();
  });

  it('untyped tables work through db.table() and camelCase property names', async () => {
    const untyped = createClient({ projectId: server.projectId, baseUrl: server.url, secretKey: server.serviceKey });
    const name = unique('tag');
    const tag = await untyped.db.table('tags').create({ name });
    expect(tag).toMatchObject({ name, color: '#3b82f6' });
    const viaProxy = await untyped.db.manualTags!.list({ limit: 1 });
    expect(Array.isArray(viaProxy)).toBe(true);
  });
});

describe('upsert', () => {
  it('upsert inserts, then updates the row with the same id (default on_conflict id)', async () => {
    const userId = unique('u');
    const created = await server.client.db.jobs.upsert(newJob(userId));
    const updated = await server.client.db.jobs.upsert({ id: created.id, userId, title: 'Renamed', description: 'x' });
    expect(updated).toMatchObject({ id: created.id, title: 'Renamed', priority: 'medium' });
    expect(await server.client.db.jobs.count({ where: { userId } })).toBe(1);
  });

  it('upsert with onConflict on another unique column (camelCase is snake-cased)', async () => {
    const email = `${unique('role')}@example.test`;
    await server.client.db.userRoles.upsert({ userId: email, role: 'viewer' }, { onConflict: 'userId' });
    const second = await server.client.db.userRoles.upsert(
      { userId: email, role: 'technician' },
      { onConflict: 'userId' },
    );
    expect(second).toMatchObject({ userId: email, role: 'technician' });
    const rows = await server.client.db.userRoles.list({ where: { userId: email } });
    expect(rows.map((r) => r.role)).toEqual(['technician']);
  });

  it('upsertMany updates existing rows and inserts new ones', async () => {
    const userId = unique('u');
    const existing = await server.client.db.jobs.create(newJob(userId));
    const rows = await server.client.db.jobs.upsertMany([
      { id: existing.id, userId, title: 'Updated', description: 'x' },
      newJob(userId, { title: 'Brand new' }),
    ]);
    expect(rows.map((r) => r.title).sort()).toEqual(['Brand new', 'Updated']);
    expect(await server.client.db.jobs.count({ where: { userId } })).toBe(2);
  });
});

describe('update and delete', () => {
  it('update returns the updated row', async () => {
    const job = await server.client.db.jobs.create(newJob(unique('u')));
    const updated = await server.client.db.jobs.update(job.id, { status: 'completed', updatedAt: 99 });
    expect(updated).toMatchObject({ id: job.id, status: 'completed', updatedAt: 99, title: job.title });
  });

  it('update of a missing id throws NOT_FOUND "Record with id … not found"', async () => {
    // The server may answer 404 itself or an empty array (the client then throws); both read the same.
    const id = unique('missing');
    const error = await failure(server.client.db.jobs.update(id, { status: 'completed' }));
    expect(error.message).toMatch(new RegExp(`^Record with id ${id} not found\\.?$`));
    expect([error.status, error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('updateMany updates each row', async () => {
    const userId = unique('u');
    const [a, b] = await server.client.db.jobs.createMany([newJob(userId), newJob(userId)]);
    const rows = await server.client.db.jobs.updateMany([
      { id: a!.id, priority: 'high' },
      { id: b!.id, priority: 'low' },
    ]);
    expect(rows.map((r) => [r.id, r.priority])).toEqual([
      [a!.id, 'high'],
      [b!.id, 'low'],
    ]);
  });

  it('delete removes one row; deleteMany removes the matching rows only', async () => {
    const userId = unique('u');
    const [a, b, c] = await server.client.db.jobs.createMany([
      newJob(userId, { status: 'completed' }),
      newJob(userId, { status: 'completed' }),
      newJob(userId, { status: 'pending' }),
    ]);
    await server.client.db.jobs.delete(a!.id);
    expect(await server.client.db.jobs.get(a!.id)).toBeNull();
    await server.client.db.jobs.deleteMany({ where: { userId, status: 'completed' } });
    expect(await server.client.db.jobs.get(b!.id)).toBeNull();
    expect((await server.client.db.jobs.list({ where: { userId } })).map((r) => r.id)).toEqual([c!.id]);
  });
});

describe('refused or empty writes', () => {
  it('delete of a missing id resolves', async () => {
    await expect(server.client.db.jobs.delete(unique('missing'))).resolves.toBeUndefined();
  });

  it('deleteMany without any filter is refused and deletes nothing', async () => {
    const userId = unique('u');
    await server.client.db.jobs.create(newJob(userId));
    const error = await failure(server.client.db.jobs.deleteMany({ where: {} }));
    expect(error.status).toBe(400);
    expect(await server.client.db.jobs.count({ where: { userId } })).toBe(1);
  });
});

describe('count and exists', () => {
  it('count reads the total from Content-Range, whatever the filter', async () => {
    const userId = unique('u');
    expect(await server.client.db.jobs.count({ where: { userId } })).toBe(0);
    await server.client.db.jobs.createMany([newJob(userId, { priority: 'high' }), newJob(userId), newJob(userId)]);
    expect(await server.client.db.jobs.count({ where: { userId } })).toBe(3);
    expect(await server.client.db.jobs.count({ where: { userId, priority: { neq: 'high' } } })).toBe(2);
    expect(await server.client.db.jobs.count()).toBeGreaterThanOrEqual(3);
  });

  it('exists', async () => {
    const userId = unique('u');
    expect(await server.client.db.jobs.exists({ where: { userId } })).toBe(false);
    await server.client.db.jobs.create(newJob(userId));
    expect(await server.client.db.jobs.exists({ where: { userId } })).toBe(true);
  });
});

describe('sql and batch (service key)', () => {
  it('sql runs a parameterised query and camelCases the rows', async () => {
    const userId = unique('u');
    await server.client.db.jobs.create(newJob(userId, { title: 'From SQL', createdAt: 5 }));
    const result = await server.client.db.sql<{ userId: string; title: string }>(
      'SELECT user_id, title FROM jobs WHERE user_id = ?',
      [userId],
    );
    expect(result.rows).toEqual([{ userId, title: 'From SQL' }]);
    expect(result.columns).toEqual(['user_id', 'title']);
    expect(result.rowCount).toBe(1);
  });

  it('batch runs statements in write mode by default and camelCases each result', async () => {
    const userId = unique('u');
    const result = await server.client.db.batch([
      {
        sql: "INSERT INTO jobs (id, user_id, title, description) VALUES (?, ?, 'B1', 'd')",
        args: [`${userId}-1`, userId],
      },
      {
        sql: "INSERT INTO jobs (id, user_id, title, description) VALUES (?, ?, 'B2', 'd')",
        args: [`${userId}-2`, userId],
      },
      { sql: 'SELECT id, user_id FROM jobs WHERE user_id = ? ORDER BY id', args: [userId] },
    ]);
    expect(result.results).toHaveLength(3);
    expect(result.results[2]?.rows).toEqual([
      { id: `${userId}-1`, userId },
      { id: `${userId}-2`, userId },
    ]);
    const read = await server.client.db.batch(
      [{ sql: 'SELECT count(*)::int AS job_count FROM jobs WHERE user_id = ?', args: [userId] }],
      'read',
    );
    expect(read.results[0]?.rows).toEqual([{ jobCount: 2 }]);
  });
});

describe('errors', () => {
  it('an unknown table is a 400 with a code', async () => {
    const error = await failure(server.client.db.table('noSuchTable' as keyof Tables).list());
    expect(error.status).toBe(400);
    expect(error.code).toMatch(/^[A-Z_]+$/);
    expect(error.message).toMatch(/no_such_table/);
  });

  it('an unknown column is a 400 with a code', async () => {
    const error = await failure(server.client.db.jobs.list({ where: { noSuchColumn: 1 } as never }));
    expect(error.status).toBe(400);
    expect(error.code).toMatch(/^[A-Z_]+$/);
  });

  it('a duplicate id is refused with a 4xx, not a 500', async () => {
    const job = await server.client.db.jobs.create(newJob(unique('u')));
    const error = await failure(server.client.db.jobs.create(newJob(unique('u'), { id: job.id })));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });

  it('no credentials or a wrong key is a 401', async () => {
    const anonymous = createClient<Tables>({ projectId: server.projectId, baseUrl: server.url });
    expect((await failure(anonymous.db.jobs.list())).status).toBe(401);
    const wrongKey = createClient<Tables>({
      projectId: server.projectId,
      baseUrl: server.url,
      secretKey: 'blnk_sk_wrong',
    });
    const error = await failure(wrongKey.db.jobs.list());
    expect(error.status).toBe(401);
    expect(error.code).toMatch(/^[A-Z_]+$/);
  });

  it('another project id is a 404', async () => {
    const other = createClient<Tables>({
      projectId: 'another-project',
      baseUrl: server.url,
      secretKey: server.serviceKey,
    });
    expect((await failure(other.db.jobs.list())).status).toBe(404);
  });

  it('sql with a user-level credential is refused', async () => {
    const anonymous = createClient({ projectId: server.projectId, baseUrl: server.url });
    const error = await failure(anonymous.db.sql('SELECT 1'));
    expect([401, 403]).toContain(error.status);
  });

  it('an unreachable server is a status-0 NETWORK_ERROR', async () => {
    const offline = createClient<Tables>({
      projectId: server.projectId,
      baseUrl: 'http://127.0.0.1:9',
      secretKey: 'k',
    });
    const error = await failure(offline.db.jobs.list());
    expect([error.status, error.code]).toEqual([0, 'NETWORK_ERROR']);
    expect(error.message).toMatch(/^Network request failed: /);
  });
});
