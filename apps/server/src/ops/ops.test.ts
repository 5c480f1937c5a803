// Liveness, readiness and Prometheus metrics (issue 10, operations).
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable } from '../realtime/test-support/redis.js';
import { buildTestApp } from '../test-support/test-server.js';
import { redactUrl } from './request-log.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123';
let app: FastifyInstance;
let pool: pg.Pool;
let serviceKey: string;
const extra: FastifyInstance[] = [];

beforeAll(async () => {
  ({ app, pool, serviceKey } = await buildTestApp({ METRICS_TOKEN }));
});
afterAll(async () => {
  for (const other of extra) await other.close();
  await app.close();
});

describe('GET /healthz (liveness)', () => {
  it('answers 200 while the process runs', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz (readiness)', () => {
  it('is ready when the database answers with every migration applied', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  });

  it.runIf(redisAvailable)('checks Redis when REDIS_URL is set', async () => {
    const withRedis = (await buildTestApp({ REDIS_URL }, { pool })).app;
    extra.push(withRedis);
    expect((await withRedis.inject({ method: 'GET', url: '/readyz' })).json().checks).toEqual({
      database: 'ok',
      migrations: 'ok',
      redis: 'ok',
    });
  });

  it('answers 503 SERVICE_UNAVAILABLE naming the check when Redis is unreachable', async () => {
    const unreachable = (await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:1/0' }, { pool })).app;
    extra.push(unreachable);
    const res = await unreachable.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', checks: { database: 'ok', migrations: 'ok' } });
    expect(res.json().message).toMatch(/^Not ready \(redis: /);
  });

  it('answers 503 while a migration of this build is not applied', async () => {
    const { rows } = await pool.query<{ version: number; name: string }>(
      'DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations) RETURNING version, name',
    );
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.migrations).toBe(`not applied: ${rows[0]!.name}`);
    } finally {
      await pool.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        rows[0]!.version,
        rows[0]!.name,
      ]);
    }
  });
});

describe('GET /metrics', () => {
  it('refuses without the metrics token or the service key', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }, { authorization: METRICS_TOKEN }]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('answers Prometheus text to the metrics token and to the service key', async () => {
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/no/such/route' });
    for (const token of [METRICS_TOKEN, serviceKey]) {
      const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.body).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status="200"\} [1-9]/m);
      expect(res.body).toMatch(
        /^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/healthz",status="200"\} /m,
      );
      expect(res.body).toMatch(/^http_requests_total\{method="GET",route="unmatched",status="404"\} /m);
      expect(res.body).toMatch(/^fieldassist_realtime_connections 0$/m);
      expect(res.body).toMatch(/^process_resident_memory_bytes /m);
    }
  });

  it('reports the ingestion queue shared by every instance', async () => {
    const client = await pool.connect();
    try {
      // Not due for an hour, so no worker claims it while the test looks.
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO manuals (id, title, file_url, file_name) VALUES ('manual_metrics', 'Pump', 'https://x.test/files/k', 'pump.pdf')`,
      );
      await client.query(
        `INSERT INTO ingestion_jobs (manual_id, run_after) VALUES ('manual_metrics', now() + interval '1 hour')`,
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const { rows } = await pool.query<{ queued: number }>(
      `SELECT count(*)::int AS queued FROM ingestion_jobs WHERE status = 'queued'`,
    );
    const res = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.body).toMatch(new RegExp(`^fieldassist_ingestion_jobs\\{status="queued"\\} ${rows[0]!.queued}$`, 'm'));
    expect(rows[0]!.queued).toBeGreaterThanOrEqual(1);
    expect(res.body).toMatch(/^fieldassist_ingestion_jobs\{status="running"\} \d+$/m);
    expect(res.body).toMatch(/^fieldassist_ingestion_oldest_queued_seconds [\d.e+-]+$/m);
  });
});

describe('request logs', () => {
  it('mask credentials in query strings and keep the rest of the URL', () => {
    expect(redactUrl('/?project_id=fieldassist&access_token=eyJhbGciOi.x.y')).toBe(
      '/?project_id=fieldassist&access_token=[redacted]',
    );
    expect(redactUrl('/auth/callback?code=abc&state=s1')).toBe('/auth/callback?code=[redacted]&state=s1');
    expect(redactUrl('/api/auth/signin/magic/verify?token=t0k3n')).toBe(
      '/api/auth/signin/magic/verify?token=[redacted]',
    );
    expect(redactUrl('/files/abc?download=1')).toBe('/files/abc?download=1');
  });
});
