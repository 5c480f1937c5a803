import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';
import { numberPlaceholders } from './raw-routes.js';

let app: FastifyInstance;
let projectId: string;
let service: Record<string, string>;

beforeAll(async () => {
  const built = await buildTestApp();
  ({ app, projectId } = built);
  service = { authorization: `Bearer ${built.serviceKey}` };
});

const post = (path: 'sql' | 'batch', payload: unknown, headers: Record<string, string> = service) =>
  app.inject({ method: 'POST', url: `/api/db/${projectId}/${path}`, headers, payload: payload as object });

describe('POST /sql', () => {
  it('runs a query with ? parameters and answers rows, columns, rowCount, executionTime', async () => {
    await post('sql', {
      query: "INSERT INTO jobs (id, user_id, title, description) VALUES (?, ?, 'what?', ?)",
      params: ['s1', 'u1', 'd'],
    });
    const res = await post('sql', { query: 'SELECT id, user_id, title FROM jobs WHERE user_id = ?', params: ['u1'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      rows: [{ id: 's1', user_id: 'u1', title: 'what?' }],
      columns: ['id', 'user_id', 'title'],
      rowCount: 1,
    });
    expect(typeof res.json().executionTime).toBe('number');
  });

  it('answers 400 for bad SQL and for a missing query', async () => {
    expect((await post('sql', { query: 'SELEC nonsense' })).json().code).toBe('INVALID_PARAMETER');
    const missing = await post('sql', { params: [] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body.query: Invalid input: expected string, received undefined',
    });
  });

  it('is refused to everyone but the service key', async () => {
    const anonymous = await post('sql', { query: 'SELECT * FROM users' }, {});
    expect(anonymous.statusCode).toBe(401);
    const forged = await post('sql', { query: 'SELECT * FROM users' }, { authorization: 'Bearer nope' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('INVALID_TOKEN');
  });
});

describe('POST /batch', () => {
  it('runs the statements in one transaction and answers results', async () => {
    const res = await post('batch', {
      statements: [
        { sql: 'INSERT INTO tags (id, name) VALUES (?, ?)', args: ['t1', 'Pumps'] },
        { sql: 'SELECT id, name, color FROM tags WHERE id = ?', args: ['t1'] },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      results: [{ rowCount: 1 }, { rows: [{ id: 't1', name: 'Pumps', color: '#3b82f6' }] }],
    });
  });

  it('rolls everything back when one statement fails', async () => {
    const res = await post('batch', {
      statements: [
        { sql: "INSERT INTO tags (id, name) VALUES ('t2', 'x')" },
        { sql: "INSERT INTO tags (id, name) VALUES ('t1', 'duplicate id')" },
      ],
    });
    expect(res.statusCode).toBe(409);
    const check = await post('sql', { query: "SELECT id FROM tags WHERE id = 't2'" });
    expect(check.json().rows).toEqual([]);
  });

  it('read mode cannot write', async () => {
    const res = await post('batch', { statements: [{ sql: 'DELETE FROM tags' }], mode: 'read' });
    expect(res.statusCode).toBe(403);
    expect((await post('sql', { query: 'SELECT count(*)::int AS n FROM tags' })).json().rows).toEqual([{ n: 1 }]);
  });

  it('validates its body', async () => {
    expect((await post('batch', { statements: [] })).json().code).toBe('VALIDATION_ERROR');
    expect((await post('batch', { statements: [{ sql: 'SELECT 1' }], mode: 'sideways' })).json().code).toBe(
      'VALIDATION_ERROR',
    );
  });
});

describe('numberPlaceholders', () => {
  it('numbers ? outside quotes and leaves $n queries alone', () => {
    expect(numberPlaceholders(`SELECT '?', "a?" FROM t WHERE a = ? AND b = ?`)).toBe(
      `SELECT '?', "a?" FROM t WHERE a = $1 AND b = $2`,
    );
    expect(numberPlaceholders('SELECT $1')).toBe('SELECT $1');
  });
});
