// The corpus statistics retrieval weighs a question's terms by (search_terms, migration 015),
// against the real database and the real app: exact after ingestion, re-ingestion and deletion.
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../data/fixtures/make-documents.js';
import type { TestUser } from '../../test-support/users.js';
import { addManual, signUpLibrarians, useLibrary, waitForIngestion } from '../ingestion/test-support/library-apps.js';
import { retrievePassages } from './retrieve.js';

const lib = useLibrary();
let app: FastifyInstance;
let people: { admin: TestUser; technician: TestUser };

beforeAll(async () => {
  app = await lib.start();
  people = await signUpLibrarians(app);
});

/** The stored counts (zero counts left by deletions omitted), and the same counted from the chunks themselves. */
async function storedAndRecounted() {
  const { rows: stored } = await lib.pool.query<{ lexeme: string; chunks: string }>(
    'SELECT lexeme, chunks FROM search_terms WHERE chunks <> 0 ORDER BY lexeme',
  );
  const { rows: recounted } = await lib.pool.query<{ lexeme: string; chunks: string }>(
    `SELECT lexeme, chunks FROM (
       SELECT '' AS lexeme, count(*) AS chunks FROM manual_content HAVING count(*) > 0
       UNION ALL SELECT lexeme, count(*) FROM manual_content, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme) t
     ORDER BY lexeme`,
  );
  return { stored, recounted };
}
/** Codes are stored as their parts: IMP-7731 is 'imp' and '-7731'. */
const countOf = async (lexeme: string) =>
  Number(
    (await lib.pool.query<{ chunks: string }>('SELECT chunks FROM search_terms WHERE lexeme = $1', [lexeme])).rows[0]
      ?.chunks ?? 0,
  );

const page = (n: number, extra: string) => [
  `Section ${n}. ${extra}`,
  ...Array.from(
    { length: 12 },
    (_, i) => `Line ${i}: tighten the flange bolts of pump ${n} evenly and check the seal.`,
  ),
];

describe('term statistics', () => {
  it('count every lexeme exactly after ingestion, re-ingestion and deletion', async () => {
    const first = await addManual(app, people.technician, {
      fileName: 'Pump manual.pdf',
      bytes: await makePdf([page(1, 'The impeller code IMP-7731 wears first.'), page(2, 'Prime the casing.')]),
    });
    const second = await addManual(app, people.technician, {
      fileName: 'Fan manual.pdf',
      bytes: await makePdf([page(1, 'The fan blade FB-19 must be balanced.')]),
    });
    await waitForIngestion(lib.pool, first.id, 60_000);
    await waitForIngestion(lib.pool, second.id, 60_000);
    let { stored, recounted } = await storedAndRecounted();
    expect(recounted.length).toBeGreaterThan(20);
    expect(stored).toEqual(recounted);
    const chunks = await countOf('');
    expect(chunks).toBeGreaterThan(2);
    expect(await countOf('-7731')).toBeGreaterThan(0);

    // Ingested again (a job run twice): its chunks are replaced, the counts stay exact.
    await lib.pool.query(
      "UPDATE ingestion_jobs SET status = 'queued', run_after = now(), attempts = 0 WHERE manual_id = $1",
      [first.id],
    );
    await lib.pool.query("UPDATE manuals SET processing_status = 'pending' WHERE id = $1", [first.id]);
    await lib.pool.query("SELECT pg_notify('ingestion', $1)", [first.id]);
    await waitForIngestion(lib.pool, first.id, 60_000);
    ({ stored, recounted } = await storedAndRecounted());
    expect(stored).toEqual(recounted);
    expect(await countOf('')).toBe(chunks);

    // An embedding stored by the indexer changes no count.
    await lib.pool.query("UPDATE manual_content SET embedding = '\\x' WHERE manual_id = $1", [second.id]);
    expect((await storedAndRecounted()).stored).toEqual(recounted);

    // Deleted through the API: its chunks go with it (a cascade), and so do their counts.
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/db/fieldassist/rest/v1/manuals?id=eq.${first.id}`,
      headers: people.admin.headers,
    });
    expect(deleted.statusCode).toBe(200);
    ({ stored, recounted } = await storedAndRecounted());
    expect(stored).toEqual(recounted);
    expect(await countOf('-7731')).toBe(0);
    expect(await countOf('-19')).toBeGreaterThan(0);
  }, 120_000);

  it('weigh a planner-only term for every caller, but never return a row of a manual the caller may not read', async () => {
    await lib.pool.query(
      `INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES
         ('stat_manual', 'Chiller service manual', '/f/sm.pdf', 'sm.pdf', 'manual'),
         ('stat_plan', 'Plant room system planner', '/f/sp.pdf', 'sp.pdf', 'system_planner')`,
    );
    await lib.pool.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES
         ('stat_manual_0', 'stat_manual', 'The chiller isolator QZ-4410 is in the plant room, behind the condenser.', 0, 1),
         ('stat_plan_0', 'stat_plan', 'Plant room layout: isolator QZ-4410 feeds the chiller, breaker QZ-5520 the pumps.', 0, 1)`,
    );
    expect(await countOf('-4410')).toBe(2);
    expect(await countOf('-5520')).toBe(1);
    for (const role of ['viewer', 'manager', null] as const) {
      for (const question of ['where is breaker QZ-5520', 'isolator QZ-4410 plant room layout']) {
        const { passages, suggestions } = await retrievePassages({ pool: lib.pool }, { question, role, limit: 50 });
        expect([...passages, ...suggestions].map((p) => p.manualId)).not.toContain('stat_plan');
        expect([...passages, ...suggestions].map((p) => p.text).join(' ')).not.toContain('QZ-5520');
      }
    }
    const { passages } = await retrievePassages(
      { pool: lib.pool },
      { question: 'where is breaker QZ-5520', role: 'technician' },
    );
    expect(passages[0]?.manualId).toBe('stat_plan');
  });
});
