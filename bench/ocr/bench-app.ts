import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrate } from '../../apps/server/src/db/migrate.js';

/**
 * The real app (buildApp(), no AI model, logger silent) on loopback, on a fresh database of
 * its own on TEST_DATABASE_URL's server; `close` stops it and drops the database.
 */
export async function startBenchApp() {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set TEST_DATABASE_URL (a PostgreSQL server the bench may create a database on)');
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const name = `fa_bench_ocr_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    cleanups.push(async () => (await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`), admin.end()));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 5 });
    pool.on('error', () => undefined);
    cleanups.push(() => pool.end());
    await migrate(pool);
    const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-ocr-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      WEB_DIST: '/nonexistent',
    });
    const app = await buildApp({
      config: {
        ...config,
        serviceKey: `blnk_sk_bench_${randomBytes(24).toString('hex')}`,
        authSecret: randomBytes(48).toString('base64url'),
      },
      pool,
    });
    cleanups.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    /** A signed-up user's headers; the first one is the admin, later ones get `role`. */
    const signUp = async (role?: 'technician') => {
      const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
      if (role)
        await pool.query('INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, $3, $4)', [
          `role_${randomBytes(6).toString('hex')}`,
          email,
          role,
          'bench',
        ]);
      const response = await fetch(`${base}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-password-0123', projectId: config.projectId }),
      });
      if (response.status !== 200) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
      return { authorization: `Bearer ${((await response.json()) as { access_token: string }).access_token}` };
    };

    /** Uploads a file to storage under `path` and returns its public URL. */
    const upload = async (headers: Record<string, string>, path: string, bytes: Buffer, type: string) => {
      const form = new FormData();
      form.append('path', path);
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), path.split('/').pop());
      const response = await fetch(`${base}/api/storage/${config.projectId}/upload`, {
        method: 'POST',
        headers,
        body: form,
      });
      if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { publicUrl: string }).publicUrl;
    };

    return { base, pool, projectId: config.projectId, signUp, upload, close };
  } catch (error) {
    await close();
    throw error;
  }
}
