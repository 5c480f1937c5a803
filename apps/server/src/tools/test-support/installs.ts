import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, expect } from 'vitest';
import { multipart } from '../../storage/test-support/upload-requests.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { buildTestApp } from '../../test-support/test-server.js';
import { signUpUser, TEST_PASSWORD } from '../../test-support/users.js';

export const PUBLIC_URL = 'https://fieldassist.test';

/** A temp folder removed after the calling file's tests. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `fieldassist-${prefix}-`));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * An embedded-style install in use: a database and a DATA_DIR whose storage folder holds a
 * user's uploaded file, a manual (with its ingestion job) and a chat message.
 */
export async function makeInstall() {
  const { url, pool } = await createTestDatabase();
  const dataDir = await tempDir('install');
  const { app } = await buildTestApp({ DATA_DIR: dataDir, PUBLIC_URL }, { pool });
  const user = await signUpUser(app, { role: 'technician' });
  const bytes = Buffer.from(`pump manual ${Date.now()}`);
  const { payload, contentType } = multipart([
    { name: 'file', fileName: 'pump.txt', contentType: 'text/plain', bytes },
    { name: 'path', value: 'manuals/pump.txt' },
  ]);
  const upload = await app.inject({
    method: 'POST',
    url: '/api/storage/fieldassist/upload',
    headers: { ...user.headers, 'content-type': contentType },
    payload,
  });
  expect(upload.statusCode).toBe(200);
  const publicUrl = upload.json<{ publicUrl: string }>().publicUrl;
  await app.close(); // the worker stops: the manual's job stays queued, as in a stopped install
  await pool.query(
    `INSERT INTO manuals (id, title, file_url, file_name) VALUES ('manual_pump', 'Pump', $1, 'pump.txt')`,
    [publicUrl],
  );
  await pool.query(`INSERT INTO ingestion_jobs (manual_id) VALUES ('manual_pump')`);
  await pool.query(
    `INSERT INTO chat_messages (id, user_id, message, response) VALUES ('msg_1', $1, 'Pump E42?', 'Check the impeller.\nThen the seal.')`,
    [user.id],
  );
  return { url, pool, dataDir, user, bytes, publicUrl };
}

/** Row counts of every table but schema_migrations. */
export async function rowCounts(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows)
    counts[table_name] = Number((await pool.query(`SELECT count(*) FROM "${table_name}"`)).rows[0].count);
  return counts;
}

/** Signs in on `app` with the install's user and downloads the stored file through its public URL. */
export async function expectInstallWorks(
  app: FastifyInstance,
  install: { user: { email: string }; bytes: Buffer; publicUrl: string },
) {
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/auth/signin/email',
    remoteAddress: '10.9.8.7',
    payload: { email: install.user.email, password: TEST_PASSWORD },
  });
  expect(signIn.statusCode).toBe(200);
  const file = await app.inject({ method: 'GET', url: new URL(install.publicUrl).pathname });
  expect(file.statusCode).toBe(200);
  expect(file.rawPayload).toEqual(install.bytes);
}
