import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../data/chunk.js';
import { CHUNKING_VERSION } from '../../data/chunk-sections.js';
import { createExtractor, type ExtractDocument } from '../../data/extract.js';
import { makeManualPdf, makePdf } from '../../data/fixtures/make-documents.js';
import { createFileStore } from '../../storage/index.js';
import type { TestUser } from '../../test-support/users.js';
import { createProductEvents } from '../events.js';
import { type IngestionDeps, ingestManual } from './ingest-manual.js';
import { claimJob, type ClaimedJob, enqueueManuals, failJob, MAX_ATTEMPTS, renewLease } from './queue.js';
import {
  addManual,
  LIBRARY_PUBLIC_URL,
  signUpLibrarians,
  uploadManualFile,
  useLibrary,
  waitFor,
  waitForIngestion,
} from './test-support/library-apps.js';

// What happens to manual ingestion when servers die, stop, stall or run side by side on one database.

const extractor = createExtractor();
afterAll(() => extractor.close());

/** A worker of the test's own, on the real parts (files, extractor, chunker), for playing a dead or stalled server. */
function workerDeps(
  pool: pg.Pool,
  dataDir: string,
  extract: ExtractDocument = extractor.extractDocument,
): IngestionDeps {
  const files = createFileStore({ dataDir, publicUrl: LIBRARY_PUBLIC_URL, pool, log: () => undefined });
  const quiet = () => undefined;
  return {
    pool,
    files,
    extract,
    chunk: chunkText,
    events: createProductEvents(),
    log: { info: quiet, warn: quiet, error: quiet },
  };
}

/** Saves a manual row and claims its job as `workerId`, in one transaction, so no other worker sees it first. */
async function insertClaimed(
  pool: pg.Pool,
  opts: { fileUrl: string; workerId: string; leaseSeconds: number },
): Promise<ClaimedJob> {
  const id = `manual_${Math.random().toString(16).slice(2, 14)}`;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ($1, 'Claimed manual', $2, 'claimed.pdf')",
      [id, opts.fileUrl],
    );
    await enqueueManuals(client, [id]);
    // claimJob takes a pool; the transaction's client answers the same query calls.
    const job = await claimJob(client as unknown as pg.Pool, opts.workerId, opts.leaseSeconds);
    await client.query('COMMIT');
    expect(job?.manualId).toBe(id);
    return job!;
  } finally {
    client.release();
  }
}

const chunksOf = async (pool: pg.Pool, manualId: string) =>
  (
    await pool.query<{ id: string; chunk_index: number; created_at: Date }>(
      'SELECT id, chunk_index, created_at FROM manual_content WHERE manual_id = $1 ORDER BY chunk_index',
      [manualId],
    )
  ).rows;
const jobOf = async (pool: pg.Pool, manualId: string) =>
  (await pool.query('SELECT status, attempts, locked_by FROM ingestion_jobs WHERE manual_id = $1', [manualId])).rows[0];

/** One set of chunks: indexes 0..n-1, each once. */
function expectOneSet(chunks: { chunk_index: number }[], expected: number) {
  expect(chunks.map((c) => c.chunk_index)).toEqual(Array.from({ length: expected }, (_, i) => i));
}

describe('a server that dies or stalls mid-ingestion', () => {
  const lib = useLibrary();
  let app: FastifyInstance;
  let technician: TestUser;
  let pdf: Buffer;
  let fileUrl: string;
  const expectedChunks = async () =>
    chunkText((await extractor.extractDocument({ bytes: pdf, fileName: 'x.pdf' })).pages).length;

  beforeAll(async () => {
    app = await lib.start();
    ({ technician } = await signUpLibrarians(app));
    pdf = await makeManualPdf(12);
    fileUrl = await uploadManualFile(app, technician, { fileName: 'claimed.pdf', bytes: pdf });
  });

  it('another worker finishes the job of a worker that died holding the lease, exactly once', async () => {
    const dead = await insertClaimed(lib.pool, { fileUrl, workerId: 'dead-worker', leaseSeconds: 1 });
    expect(await jobOf(lib.pool, dead.manualId)).toEqual({ status: 'running', attempts: 1, locked_by: 'dead-worker' });

    // The app's worker takes the job over once the lease lapses.
    expect(await waitForIngestion(lib.pool, dead.manualId)).toMatchObject({
      processing_status: 'ready',
      page_count: 12,
    });
    expect(await jobOf(lib.pool, dead.manualId)).toEqual({ status: 'done', attempts: 2, locked_by: null });
    const chunks = await chunksOf(lib.pool, dead.manualId);
    expectOneSet(chunks, await expectedChunks());

    // The dead worker coming back changes nothing: no work, no failure recorded, no lease.
    await ingestManual(workerDeps(lib.pool, lib.dataDir), dead, 'dead-worker');
    expect(await failJob(lib.pool, dead, 'dead-worker', 'late', false)).toBe('lost');
    expect(await renewLease(lib.pool, dead, 'dead-worker', 60)).toBe(false);
    expect(await chunksOf(lib.pool, dead.manualId)).toEqual(chunks);
    expect(await jobOf(lib.pool, dead.manualId)).toEqual({ status: 'done', attempts: 2, locked_by: null });
    const { rows } = await lib.pool.query('SELECT processing_status FROM manuals WHERE id = $1', [dead.manualId]);
    expect(rows[0].processing_status).toBe('ready');
  });

  it('a worker that lost its lease while reading cannot commit its chunks', async () => {
    const stalled = await insertClaimed(lib.pool, { fileUrl, workerId: 'stalled-worker', leaseSeconds: 60 });
    // The stalled worker reads the file, then pauses past its lease while the app's worker redoes the job.
    const stallAfterReading: ExtractDocument = async (file) => {
      const document = await extractor.extractDocument(file);
      await lib.pool.query("UPDATE ingestion_jobs SET locked_until = now() - interval '1 second' WHERE id = $1", [
        stalled.id,
      ]);
      await waitFor('the app to take the job over and finish it', async () =>
        (await jobOf(lib.pool, stalled.manualId)).status === 'done' ? true : undefined,
      );
      return document;
    };
    await ingestManual(workerDeps(lib.pool, lib.dataDir, stallAfterReading), stalled, 'stalled-worker');

    expect(await jobOf(lib.pool, stalled.manualId)).toEqual({ status: 'done', attempts: 2, locked_by: null });
    const { rows } = await lib.pool.query('SELECT processing_status, page_count FROM manuals WHERE id = $1', [
      stalled.manualId,
    ]);
    expect(rows[0]).toEqual({ processing_status: 'ready', page_count: 12 });
    expectOneSet(await chunksOf(lib.pool, stalled.manualId), await expectedChunks());
  });

  it('a stopped server hands its job back, and the next start finishes it', async () => {
    const big = await makeManualPdf(500);
    const manual = await addManual(app, technician, { fileName: 'long-manual.pdf', bytes: big });
    await waitFor('the extraction to start', async () =>
      (await jobOf(lib.pool, manual.id)).status === 'running' ? true : undefined,
    );
    await lib.stop(app);
    // Cut off mid-way: queued again at once, the attempt not counted, no chunks.
    const { rows } = await lib.pool.query('SELECT processing_status FROM manuals WHERE id = $1', [manual.id]);
    expect({
      job: await jobOf(lib.pool, manual.id),
      manual: rows[0],
      chunks: (await chunksOf(lib.pool, manual.id)).length,
    }).toEqual({
      job: { status: 'queued', attempts: 0, locked_by: null },
      manual: { processing_status: 'pending' },
      chunks: 0,
    });

    app = await lib.start();
    expect(await waitForIngestion(lib.pool, manual.id, 60_000)).toMatchObject({
      processing_status: 'ready',
      page_count: 500,
    });
    expect(await jobOf(lib.pool, manual.id)).toEqual({ status: 'done', attempts: 1, locked_by: null });
    const chunks = await chunksOf(lib.pool, manual.id);
    expectOneSet(chunks, chunks.length);
    expect(chunks.length).toBeGreaterThanOrEqual(500);
  });
  it("keeps ingesting when the database drops the worker's LISTEN connection, and listens again", async () => {
    const listening = async () =>
      (
        await lib.pool.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ingestion'",
        )
      ).rows.map((r) => r.pid);
    const [before] = await waitFor('the worker to listen', async () =>
      (await listening()).length === 1 ? listening() : undefined,
    );
    await lib.pool.query('SELECT pg_terminate_backend($1)', [before]);
    const manual = await addManual(app, technician, {
      fileName: 'after-disconnect.txt',
      bytes: Buffer.from('Still ingested.'),
    });
    expect((await waitForIngestion(lib.pool, manual.id)).processing_status).toBe('ready');
    const after = await waitFor('the worker to listen again', async () =>
      (await listening()).length === 1 ? listening() : undefined,
    );
    expect(after).not.toEqual([before]);
  });
});

describe('two servers on one database', () => {
  const lib = useLibrary();

  it('ingest many manuals at once, each exactly once', async () => {
    const apps = [await lib.start(), await lib.start()];
    const { technician } = await signUpLibrarians(apps[0]!);
    const pdf = await makePdf([
      ['Pump manual, page one.', 'Check PN-4471-B.'],
      ['Page two.', 'Error E42: blocked drain.'],
    ]);
    const manuals = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        addManual(apps[i % 2]!, technician, { fileName: `pump-${i}.pdf`, bytes: pdf }),
      ),
    );

    for (const manual of manuals)
      expect((await waitForIngestion(lib.pool, manual.id, 60_000)).processing_status).toBe('ready');
    const { rows: jobs } = await lib.pool.query(
      'SELECT status, attempts, count(*)::int AS n FROM ingestion_jobs GROUP BY status, attempts',
    );
    expect(jobs).toEqual([{ status: 'done', attempts: 1, n: 16 }]);
    const { rows: content } = await lib.pool.query(
      'SELECT manual_id, count(*)::int AS n, count(DISTINCT chunk_index)::int AS distinct_indexes, min(chunk_index) AS first FROM manual_content GROUP BY manual_id',
    );
    expect(content).toHaveLength(16);
    for (const row of content) expect(row).toMatchObject({ n: 2, distinct_indexes: 2, first: 0 });
  });
});

describe('manuals an older chunking read', () => {
  const lib = useLibrary();

  it('are read again in the background when a server starts, staying ready and searchable meanwhile', async () => {
    const app = await lib.start();
    const { technician } = await signUpLibrarians(app);
    const pdf = await makePdf([
      ['Pump manual, page one.', 'Check PN-4471-B.'],
      ['Page two.', 'Error E42: blocked drain.'],
    ]);
    const old = await addManual(app, technician, { fileName: 'old-pump.pdf', bytes: pdf });
    await waitForIngestion(lib.pool, old.id);
    const fresh = await chunksOf(lib.pool, old.id);
    const version = async (id: string) =>
      (await lib.pool.query('SELECT chunked_with FROM manuals WHERE id = $1', [id])).rows[0].chunked_with;
    expect(await version(old.id)).toBe(CHUNKING_VERSION);

    // As an older server left it: its chunks cut otherwise, and a version below today's.
    await lib.pool.query('DELETE FROM manual_content WHERE manual_id = $1 AND chunk_index > 0', [old.id]);
    await lib.pool.query("UPDATE manual_content SET extracted_text = 'as an old chunker cut it' WHERE manual_id = $1", [
      old.id,
    ]);
    await lib.pool.query('UPDATE manuals SET chunked_with = $2 WHERE id = $1', [old.id, CHUNKING_VERSION - 1]);
    // One whose file is gone keeps its chunks; rows not made by ingestion (NULL) are left alone.
    for (const [id, chunkedWith] of [
      ['manual_gone', CHUNKING_VERSION - 1],
      ['manual_imported', null],
    ] as const) {
      await lib.pool.query(
        `INSERT INTO manuals (id, title, file_url, file_name, processing_status, chunked_with)
         VALUES ($1, 'Old', '${LIBRARY_PUBLIC_URL}/files/missing.pdf', 'missing.pdf', 'ready', $2)`,
        [id, chunkedWith],
      );
      await lib.pool.query("INSERT INTO ingestion_jobs (manual_id, status, attempts) VALUES ($1, 'done', 1)", [id]);
      await lib.pool.query(
        "INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1 || '_0', $1, 'kept text', 0, 1)",
        [id],
      );
    }

    await lib.stop(app);
    await lib.start(); // its worker reads the old manual again
    const statuses = new Set<string>();
    await waitFor('the old manual to be read again', async () => {
      const { rows } = await lib.pool.query('SELECT processing_status FROM manuals');
      for (const row of rows) statuses.add(row.processing_status);
      return (await version(old.id)) === CHUNKING_VERSION ? true : undefined;
    });
    expect(statuses).toEqual(new Set(['ready']));
    expect((await chunksOf(lib.pool, old.id)).map((c) => c.chunk_index)).toEqual(fresh.map((c) => c.chunk_index));
    await waitFor('the missing file to be given up on', async () =>
      (await jobOf(lib.pool, 'manual_gone')).status === 'failed' ? true : undefined,
    );
    const { rows } = await lib.pool.query(
      `SELECT m.id, m.processing_status, m.processing_error, m.chunked_with, j.status AS job, c.extracted_text
       FROM manuals m JOIN ingestion_jobs j ON j.manual_id = m.id JOIN manual_content c ON c.manual_id = m.id
       WHERE m.id IN ('manual_gone', 'manual_imported') ORDER BY m.id`,
    );
    expect(rows).toEqual([
      {
        id: 'manual_gone',
        processing_status: 'ready',
        processing_error: null,
        chunked_with: CHUNKING_VERSION - 1,
        job: 'failed',
        extracted_text: 'kept text',
      },
      {
        id: 'manual_imported',
        processing_status: 'ready',
        processing_error: null,
        chunked_with: null,
        job: 'done',
        extracted_text: 'kept text',
      },
    ]);
  });
});

describe('the job queue', () => {
  const lib = useLibrary(); // no server started: the test is the only worker

  it('retries a transient failure with back-off and gives up after MAX_ATTEMPTS', async () => {
    await lib.pool.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('manual_flaky', 'Flaky', 'https://files.fieldassist.test/files/x', 'x.pdf')",
    );
    await lib.pool.query("INSERT INTO ingestion_jobs (manual_id) VALUES ('manual_flaky')");
    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const job = await claimJob(lib.pool, 'worker', 60);
      expect(job).toMatchObject({ manualId: 'manual_flaky', attempts: attempt });
      expect(await failJob(lib.pool, job!, 'worker', 'database hiccup', false)).toBe(
        attempt < MAX_ATTEMPTS ? 'retry' : 'failed',
      );
      const { rows } = await lib.pool.query(
        "SELECT round(extract(epoch FROM run_after - now()))::int AS wait FROM ingestion_jobs WHERE manual_id = 'manual_flaky'",
      );
      delays.push(rows[0].wait);
      expect(await claimJob(lib.pool, 'worker', 60)).toBeUndefined(); // not due yet, or failed for good
      await lib.pool.query("UPDATE ingestion_jobs SET run_after = now() WHERE manual_id = 'manual_flaky'");
    }
    expect(delays.slice(0, MAX_ATTEMPTS - 1)).toEqual([10, 20, 40, 80]);
    expect(await jobOf(lib.pool, 'manual_flaky')).toEqual({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      locked_by: null,
    });
    expect(await claimJob(lib.pool, 'worker', 60)).toBeUndefined();
  });
});
