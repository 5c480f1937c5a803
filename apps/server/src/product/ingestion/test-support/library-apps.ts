import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../../app.js';
import { loadConfig } from '../../../config.js';
import { createPool } from '../../../db/pool.js';
import { multipart } from '../../../storage/test-support/upload-requests.js';
import { createTestDatabase } from '../../../test-support/test-database.js';
import { TEST_AUTH_SECRET, TEST_SERVICE_KEY } from '../../../test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../test-support/users.js';

export const LIBRARY_PUBLIC_URL = 'https://files.fieldassist.test';

/** One line of the server's log: pino's level (30 info, 40 warn, 50 error) and message. */
export interface LogLine {
  level: number;
  msg: string;
}
const pickLogLine = ({ level, msg }: LogLine): LogLine => ({ level, msg });

export interface Library {
  pool: pg.Pool;
  url: string;
  dataDir: string;
  /** Builds another real app (its own pool and ingestion worker) on the shared database and files; `logTo` collects its log at info level and above. */
  start(options?: { logTo?: LogLine[] }): Promise<FastifyInstance>;
  /** Closes one app (its worker stops, its extractions are cut off) and its pool. */
  stop(app: FastifyInstance): Promise<void>;
  /** The files under the disk driver's storage root. */
  storedFiles(): Promise<string[]>;
}

/**
 * One database and one storage folder shared by server instances, as a scaled-out install
 * runs them, so a test can run two apps at once or stop one and start the next. The
 * returned object is filled in by a beforeAll hook of the calling file or describe block;
 * `env` adds to or overrides the apps' environment.
 */
export function useLibrary(env: Record<string, string> = {}): Library {
  const lib = {} as Library;
  const open: { app: FastifyInstance; pool: pg.Pool }[] = [];
  let dataDir: string | undefined;

  beforeAll(async () => {
    const { url, pool } = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-ingestion-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: url,
      WEB_DIST: '/nonexistent',
      DATA_DIR: dataDir,
      PUBLIC_URL: LIBRARY_PUBLIC_URL,
      ...env,
    });
    const root = join(dataDir, 'storage');
    Object.assign(lib, {
      pool,
      url,
      dataDir,
      async start({ logTo }: { logTo?: LogLine[] } = {}) {
        const appPool = createPool(url, 5);
        const logDestination = logTo && { write: (line: string) => void logTo.push(pickLogLine(JSON.parse(line))) };
        const app = await buildApp({
          config: {
            ...config,
            serviceKey: TEST_SERVICE_KEY,
            authSecret: TEST_AUTH_SECRET,
            ...(logTo && { logLevel: 'info' }),
          },
          pool: appPool,
          logDestination,
        });
        open.push({ app, pool: appPool });
        return app;
      },
      stop,
      async storedFiles() {
        const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
        return entries
          .filter((e) => e.isFile())
          .map((e) => relative(root, join(e.parentPath, e.name)))
          .sort();
      },
    } satisfies Library);
    // Registered after createTestDatabase's hook, so it runs before it: the apps close, then the database goes.
    afterAll(async () => {
      for (const { app } of [...open]) await stop(app);
      await rm(root, { recursive: true, force: true });
      await rm(dataDir!, { recursive: true, force: true });
    });
  });

  async function stop(app: FastifyInstance) {
    const index = open.findIndex((o) => o.app === app);
    if (index === -1) return;
    const [entry] = open.splice(index, 1);
    await entry!.app.close();
    await entry!.pool.end();
  }

  return lib;
}

/** The library's people: the first account is the admin. */
export async function signUpLibrarians(app: FastifyInstance) {
  const admin = await signUpUser(app, { email: `admin-${Date.now()}@example.com` });
  if (admin.role !== 'admin') throw new Error(`the first account should be admin, is ${admin.role}`);
  return { admin, technician: await signUpUser(app, { role: 'technician' }) };
}

const rest = (table: string, query = '') => `/api/db/fieldassist/rest/v1/${table}${query}`;

/** Uploads a manual's file through the storage API, as the web app does; returns its public URL. */
export async function uploadManualFile(
  app: FastifyInstance,
  user: TestUser,
  opts: { fileName: string; bytes: Buffer },
): Promise<string> {
  const { payload, contentType } = multipart([
    { name: 'file', fileName: opts.fileName, bytes: opts.bytes },
    { name: 'path', value: `manuals/${Date.now()}_${opts.fileName}` },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/storage/fieldassist/upload',
    headers: { ...user.headers, 'content-type': contentType },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return res.json<{ publicUrl: string }>().publicUrl;
}

export interface ManualRow {
  id: string;
  file_url: string;
  processing_status: string;
  processing_error: string | null;
  page_count: number | null;
}

/** Saves the manual row through the generic REST API (as the Blink client does); the REST hook queues its ingestion. */
export async function createManual(
  app: FastifyInstance,
  user: TestUser,
  opts: { fileUrl: string; fileName: string; bytes: number; title?: string },
): Promise<ManualRow> {
  const id = `manual_${Math.random().toString(16).slice(2, 14)}`;
  const res = await app.inject({
    method: 'POST',
    url: rest('manuals'),
    headers: { ...user.headers, prefer: 'return=representation' },
    payload: {
      id,
      title: opts.title ?? opts.fileName,
      file_url: opts.fileUrl,
      file_name: opts.fileName,
      file_size: opts.bytes,
      document_type: 'manual',
      uploaded_by: user.email,
    },
  });
  if (res.statusCode !== 201 && res.statusCode !== 200)
    throw new Error(`creating the manual failed: ${res.statusCode} ${res.body}`);
  const body = res.json<ManualRow[] | ManualRow>();
  return Array.isArray(body) ? body[0]! : body;
}

/** Upload, then save: a technician adding one manual to the library. */
export async function addManual(
  app: FastifyInstance,
  user: TestUser,
  opts: { fileName: string; bytes: Buffer; title?: string },
) {
  const fileUrl = await uploadManualFile(app, user, opts);
  return createManual(app, user, { fileUrl, fileName: opts.fileName, bytes: opts.bytes.length, title: opts.title });
}

/** Polls `check` until it returns a value other than undefined, for at most `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the manual's ingestion ended ('ready' or 'failed') and returns its row. */
export function waitForIngestion(pool: pg.Pool, manualId: string, timeoutMs?: number): Promise<ManualRow> {
  return waitFor(
    `manual ${manualId} to be ingested`,
    async () => {
      const { rows } = await pool.query<ManualRow>(
        'SELECT id, file_url, processing_status, processing_error, page_count FROM manuals WHERE id = $1',
        [manualId],
      );
      const row = rows[0];
      return row && (row.processing_status === 'ready' || row.processing_status === 'failed') ? row : undefined;
    },
    timeoutMs,
  );
}
