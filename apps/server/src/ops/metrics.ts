import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** Reads the values that live elsewhere (the ingestion queue) just before a scrape. */
  refresh(): Promise<void>;
}

/**
 * Prometheus metrics of one server instance, in its own registry: requests and latencies by
 * route and status, server errors, the ingestion queue (read from ingestion_jobs, which every
 * instance shares) and this instance's open realtime connections.
 */
export function createMetrics(app: FastifyInstance, pool: pg.Pool): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames,
    registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  const errors = new Counter({
    name: 'http_server_errors_total',
    help: 'HTTP requests answered with a 5xx status',
    labelNames,
    registers: [registry],
  });
  const queue = new Gauge({
    name: 'fieldassist_ingestion_jobs',
    help: 'Manual ingestion jobs waiting (queued) or in progress (running), all instances',
    labelNames: ['status'],
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'fieldassist_ingestion_oldest_queued_seconds',
    help: 'How long the oldest due, unclaimed ingestion job has waited',
    registers: [registry],
  });
  new Gauge({
    name: 'fieldassist_realtime_connections',
    help: 'Open realtime WebSocket connections on this instance',
    registers: [registry],
    collect() {
      const server = (app as { websocketServer?: { clients: Set<unknown> } }).websocketServer;
      this.set(server?.clients.size ?? 0);
    },
  });

  // One labelled series per method, route and status, looked up once: prom-client would
  // otherwise hash the label object on every request (a measurable share of a small request).
  const series = new Map<
    string,
    {
      requests: ReturnType<typeof requests.labels>;
      duration: ReturnType<typeof duration.labels>;
      errors: ReturnType<typeof errors.labels>;
    }
  >();
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: one series per route, not per id.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let s = series.get(key);
    if (!s) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      series.set(
        key,
        (s = { requests: requests.labels(labels), duration: duration.labels(labels), errors: errors.labels(labels) }),
      );
    }
    s.requests.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) s.errors.inc();
    done();
  });

  return {
    registry,
    async refresh() {
      const { rows } = await pool.query<{ queued: number; running: number; oldest: number }>(
        `SELECT count(*) FILTER (WHERE status = 'queued')::int AS queued,
                count(*) FILTER (WHERE status = 'running')::int AS running,
                coalesce(extract(epoch FROM now() - min(run_after) FILTER (WHERE status = 'queued' AND run_after <= now())), 0)::float8 AS oldest
         FROM ingestion_jobs WHERE status IN ('queued', 'running')`,
      );
      const row = rows[0]!;
      queue.set({ status: 'queued' }, row.queued);
      queue.set({ status: 'running' }, row.running);
      oldest.set(row.oldest);
    },
  };
}
