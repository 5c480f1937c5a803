import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createPool } from '../db/pool.js';
import { convertWordVectors, wordVectorsReady } from '../product/retrieval/word-vectors.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A server URL (any database) on which test files create their own databases. */
    adminDatabaseUrl: string;
    /** The migrated database each test file's database is cloned from. */
    templateDatabase: string;
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
  const templateDatabase = `fa_template_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${templateDatabase}"`);
  const pool = createPool(withDatabase(adminUrl, templateDatabase), 1);
  await migrate(pool);
  await pool.end();

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${templateDatabase}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await embedded?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
