import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { type AppDeps, buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createTestDatabase } from './test-database.js';

export const TEST_SERVICE_KEY = 'blnk_sk_test_service_key_for_tests_only_0123456789';
export const TEST_AUTH_SECRET = 'test-auth-secret-for-tests-only-0123456789abcdef';

/** The real app on the calling file's own database, for `app.inject()`. */
export async function buildTestApp(
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'downloadFile'> & { pool?: pg.Pool } = {},
): Promise<{ app: FastifyInstance; projectId: string; serviceKey: string; pool: pg.Pool }> {
  // With `deps.pool`, a second instance on the same database (as behind a load balancer).
  const { url, pool } = deps.pool ? { url: 'postgres://shared-pool', pool: deps.pool } : await createTestDatabase();
  // Stored files go to a folder of this app's own, removed when it closes.
  const dataDir = env.DATA_DIR ? undefined : await mkdtemp(join(tmpdir(), 'fieldassist-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    WEB_DIST: '/nonexistent',
    DATA_DIR: dataDir,
    ...env,
  });
  const app = await buildApp({
    config: { ...config, serviceKey: TEST_SERVICE_KEY, authSecret: TEST_AUTH_SECRET },
    pool,
    ...deps,
  });
  if (dataDir) app.addHook('onClose', () => rm(dataDir, { recursive: true, force: true }));
  return { app, projectId: config.projectId, serviceKey: TEST_SERVICE_KEY, pool };
}

/** The same app listening on an ephemeral loopback port, for clients that speak HTTP. */
export async function startTestServer(env: Record<string, string> = {}) {
  const { app, projectId, serviceKey, pool } = await buildTestApp(env);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app: app as FastifyInstance,
    url: `http://127.0.0.1:${port}`,
    projectId,
    serviceKey,
    pool,
    close: () => app.close(),
  };
}
