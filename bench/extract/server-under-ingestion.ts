/**
 * The second half of bench/extract: the real server (buildApp, as main.ts builds it) on a
 * database of its own, and a manual of `pages` dense pages for its ingestion worker to read.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { makePdf, manualPageLines } from '../../apps/server/src/data/fixtures/make-documents.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { createPool } from '../../apps/server/src/db/pool.js';
import { createFileStore } from '../../apps/server/src/storage/index.js';
import type { Cleanups } from '../tools/database.js';

export { type Cleanups, openBenchDatabase as openDatabase } from '../tools/database.js';

/** A small deterministic PRNG, so every run makes the same manual. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A PDF of `pages` pages of about 2,500 characters each (manualPageLines plus 36 lines of
 * service-manual words), so ingestion writes about three chunks a page, as a real manual does.
 */
export async function makeDenseManual(pages: number): Promise<Buffer> {
  const random = mulberry32(7);
  const words = [
    'inspect',
    'replace',
    'valve',
    'pump',
    'filter',
    'pressure',
    'sensor',
    'wiring',
    'compressor',
    'thermostat',
    'calibrate',
    'torque',
    'bolt',
    'seal',
    'gasket',
    'bearing',
    'motor',
    'fan',
    'coil',
    'drain',
    'relay',
    'fuse',
    'voltage',
    'E42',
    'PN-4471-B',
  ];
  const line = () => Array.from({ length: 9 }, () => words[Math.floor(random() * words.length)]).join(' ') + '.';
  return makePdf(
    Array.from({ length: pages }, (_, i) => [...manualPageLines(i + 1), ...Array.from({ length: 36 }, line)]),
  );
}

export interface BenchServer {
  app: FastifyInstance;
  url: string;
  pool: pg.Pool;
  serviceKey: string;
  projectId: string;
  /** Stores the bytes as the storage module does and returns the file's public URL. */
  saveFile(path: string, bytes: Buffer): Promise<string>;
  postgres: string;
}

/**
 * The server as main.ts builds it (logger 'silent'), listening on 127.0.0.1 with its ingestion
 * worker running, and with `embeddings` its background indexer too.
 */
export async function startServer(
  cleanups: Cleanups,
  opts: { databaseUrl: string; poolSize: number; embeddings: boolean; log: (message: string) => void },
): Promise<BenchServer> {
  const pool = createPool(opts.databaseUrl, opts.poolSize);
  cleanups.push(() => pool.end());
  await migrate(pool);
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-data-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: opts.databaseUrl,
    DB_POOL_MAX: String(opts.poolSize),
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    EMBEDDINGS: opts.embeddings ? 'on' : 'off',
    // As in part 1: production's 60 s limit must not end a measurement on a slow (shared) machine.
    EXTRACT_TIMEOUT_MS: '600000',
  });
  const serviceKey = `blnk_sk_bench_${randomBytes(24).toString('hex')}`;
  const app = await buildApp({
    config: { ...config, serviceKey, authSecret: randomBytes(48).toString('base64url') },
    pool,
  });
  cleanups.push(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  const files = createFileStore({ dataDir, publicUrl: config.publicUrl, pool, log: opts.log });
  const postgres = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  return {
    app,
    pool,
    serviceKey,
    projectId: config.projectId,
    postgres,
    url: `http://127.0.0.1:${address.port}`,
    saveFile: (path, bytes) => files.saveServerFile({ path, bytes, contentType: 'application/pdf' }),
  };
}
