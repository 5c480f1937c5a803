import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { errorBody } from '../error-handler.js';
import { ApiError } from '../errors.js';
import { createMetrics } from './metrics.js';
import { checkReadiness } from './readiness.js';

export interface OpsRouteDeps {
  pool: pg.Pool;
  redis?: Redis;
  /** Bearer tokens /metrics accepts: METRICS_TOKEN when set, and the service key. */
  metricsTokens: string[];
}

/**
 * Operations endpoints, outside /api: GET /healthz (liveness: the process answers), GET /readyz
 * (readiness: database, migrations and Redis; 503 otherwise) and GET /metrics (Prometheus text,
 * for a bearer METRICS_TOKEN or the service key). Registered before the modules so the request
 * metrics see every route.
 */
export function registerOpsRoutes(app: FastifyInstance, { pool, redis, metricsTokens }: OpsRouteDeps) {
  const metrics = createMetrics(app, pool);
  const tokens = metricsTokens.map((token) => Buffer.from(token));

  // A database outage must not get healthy processes restarted: liveness checks nothing else.
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const { ready, checks } = await checkReadiness({ pool, redis });
    if (ready) return { status: 'ready', checks };
    const failing = Object.entries(checks)
      .filter(([, result]) => result !== 'ok')
      .map(([name, result]) => `${name}: ${result}`);
    return reply.status(503).send({ ...errorBody('SERVICE_UNAVAILABLE', `Not ready (${failing.join('; ')})`), checks });
  });

  app.get('/metrics', async (request, reply) => {
    if (!hasToken(request, tokens))
      throw new ApiError('UNAUTHORIZED', 'GET /metrics needs the metrics token or the service key as a bearer token');
    await metrics
      .refresh()
      .catch((error: Error) => request.log.warn(`metrics: ingestion queue unreadable: ${error.message}`));
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

function hasToken(request: FastifyRequest, tokens: Buffer[]): boolean {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length).trim());
  return tokens.some((token) => token.length === given.length && timingSafeEqual(token, given));
}
