import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.js';

/** Steps a bench undoes at its end, last first. */
export type Cleanups = (() => Promise<unknown>)[];

/**
 * A fresh `fa_bench_<random>` database on TEST_DATABASE_URL or DATABASE_URL, dropped at the end;
 * undefined when neither is set.
 */
export async function createBenchDatabase(cleanups: Cleanups): Promise<{ url: string; kind: string } | undefined> {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `fa_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  cleanups.push(() => admin.end());
  await admin.query(`CREATE DATABASE "${name}"`);
  cleanups.push(() => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    kind: `${process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : 'DATABASE_URL'} (database ${name})`,
  };
}

/** That database, else an embedded PostgreSQL in a temporary folder. */
export async function openBenchDatabase(
  cleanups: Cleanups,
  log: (message: string) => void,
): Promise<{ url: string; kind: string }> {
  const created = await createBenchDatabase(cleanups);
  if (created) return created;
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-pg-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const embedded = await startEmbeddedPostgres({ dataDir, log });
  cleanups.push(() => embedded.stop());
  return { url: embedded.url, kind: 'embedded PostgreSQL (temporary data dir)' };
}
