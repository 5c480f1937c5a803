import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, transaction } from '../../db/pool.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { CANDIDATE_QUERY_BEGIN, findCandidates } from './retrieve.js';

/** Every statement the clients a pool opens from now on run, with the client that ran it. */
function recording(pool: pg.Pool) {
  const statements: { client: pg.PoolClient; text: string; values?: unknown[] }[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // The pool's own query() passes a callback: every argument goes on.
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text === 'string')
        statements.push({ client: client as pg.PoolClient, text, values: values as unknown[] });
      return query(...args);
    }) as typeof client.query;
  });
  return statements;
}

const plan = async (pool: pg.Pool, begin: string, { text, values }: { text: string; values?: unknown[] }) =>
  transaction(
    pool,
    async (client) =>
      (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n'),
    begin,
  );

// A long question's rare words, each in one chunk of the pump manual and in none of the many other chunks.
const RARE = (
  'impeller volute priming cavitation gland packing bearing coupling strainer foot valve casing ' +
  'diffuser shaft sleeve lantern wear ring suction discharge head flange gasket motor'
).split(' ');

describe('the candidate query in a large library', () => {
  let pool: pg.Pool;
  let url: string;
  beforeAll(async () => {
    ({ pool, url } = await createTestDatabase());
    await pool.query(
      `INSERT INTO manuals (id, title, file_url, file_name) VALUES
         ('gen', 'Generated manual', '/f/gen.pdf', 'gen.pdf'), ('pump', 'Pump manual', '/f/pump.pdf', 'pump.pdf')`,
    );
    // Many chunks of a small vocabulary: every one of its words is among the column's most common ones,
    // so the planner rates a word outside them at half the least common one's share. Fewer than the
    // 30,000 rows ANALYZE samples, so the statistics, and the plans, are the same at every run.
    await pool.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
       SELECT 'gen_' || g, 'gen', (SELECT string_agg('tok' || ((g * 7 + k * 13) % 300), ' ') FROM generate_series(1, 40) k), g, g
       FROM generate_series(1, 29000) g`,
    );
    await pool.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
       SELECT 'pump_' || i, 'pump', 'Check the ' || w || ' before the pump is started again.', i, i
       FROM unnest($1::text[]) WITH ORDINALITY AS t(w, i)`,
      [RARE],
    );
    await pool.query('ANALYZE manual_content');
  }, 120_000);
  afterAll(() => pool.end());

  it('reads the chunks that hold a rare word through the index, never the whole table in order', async () => {
    // A pool of its own, so that every client it opens is watched.
    const watched = createPool(url, 2);
    const statements = recording(watched);
    try {
      const candidates = await findCandidates(
        { pool: watched },
        { question: `pump: ${RARE.join(' ')}`, role: 'technician' },
      );
      expect(candidates.filter((c) => c.row.manual_id === 'pump')).toHaveLength(RARE.length);
    } finally {
      await watched.end();
    }
    const query = statements.find((s) => s.text.includes('every_way'))!;
    const before = statements.filter((s) => s.client === query.client);
    expect(before[before.indexOf(query) - 1]?.text).toBe(CANDIDATE_QUERY_BEGIN);
    // The library provokes the planner: left to itself, it reads the table in order for the first rows that match.
    const wayScan = /Seq Scan on manual_content c\b|Seq Scan on manual_content c_\d/;
    expect(await plan(pool, 'BEGIN', query)).toMatch(wayScan);
    expect(await plan(pool, CANDIDATE_QUERY_BEGIN, query)).not.toMatch(/Seq Scan on manual_content/);
  });
});
