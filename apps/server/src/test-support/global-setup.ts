import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { convertWordVectors, wordVectorsReady } from '../product/retrieval/word-vectors.js';

/** Connections dropping the run's databases at the end. */
const DROP_CONCURRENCY = 8;

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server URL (any database) on which test files create their own databases. */
    adminDatabaseUrl: string;
    /** The migrated database each test file's database is cloned from. */
    templateDatabase: string;
    /** Begins the name of every database this run makes, so its teardown drops them all. */
    runDatabasePrefix: string;
  }
}

/**
 * Once per run: the word vectors' binary when missing, a PostgreSQL to test against (TEST_DATABASE_URL, else the embedded one) and
 * a template database with every migration applied, cloned per test file (test-database.ts).
 */
export default async function setup(project: TestProject) {
  // The embeddings' word vectors, made once after an install (the server's build makes them too).
  if (!wordVectorsReady()) await convertWordVectors();
  let embedded: EmbeddedPostgres | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-test-pg-'));
    embedded = await startEmbeddedPostgres({ dataDir, log: () => undefined });
    adminUrl = embedded.url;
  }
  const runDatabasePrefix = `fa_${process.pid.toString(36)}${Date.now().toString(36)}_`;
  const templateDatabase = `${runDatabasePrefix}template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${templateDatabase}"`);
  const pool = createPool(withDatabase(adminUrl, templateDatabase), 1);
  await migrate(pool);
  await pool.end();

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);
  project.provide('runDatabasePrefix', runDatabasePrefix);

  // The files' databases are dropped here, once their processes are gone: a file cannot drop its
  // own while an app it started may still hold a connection, and a hook added inside a test never runs.
  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [runDatabasePrefix],
    );
    await admin.end();
    // Several at a time: each DROP DATABASE waits for a checkpoint, and drops waiting together share
    // one (one by one, a run's hundreds of databases took minutes on a busy server).
    // (A plain pool: createPool's connection timeout would fail the drops queued longer than it.)
    const drops = new pg.Pool({ connectionString: adminUrl, max: DROP_CONCURRENCY });
    // An idle connection the server ends while the pool closes (the embedded PostgreSQL stopping right
    // after) is no failure of the run: unheard, the pool's 'error' ended the process with exit 1.
    drops.on('error', () => undefined);
    await Promise.all(
      rows.map(({ datname }) =>
        drops.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined),
      ),
    );
    await drops.end();
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
