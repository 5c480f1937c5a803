import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { type Caller, requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import { transaction } from './pool.js';

const ZValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const ZSqlBody = z.object({
  query: z.string().min(1).max(100_000),
  params: z.array(ZValue).max(1000).default([]),
});
export const ZBatchBody = z.object({
  statements: z
    .array(z.object({ sql: z.string().min(1).max(100_000), args: z.array(ZValue).max(1000).default([]) }))
    .min(1)
    .max(100),
  mode: z.enum(['read', 'write']).default('write'),
});

/** Raw SQL is for the server's service key alone (PLATFORM_API.md decision 4). */
function requireServiceKey(caller: Caller) {
  requireSignedIn(caller);
  if (caller.kind !== 'service') throw new ApiError('FORBIDDEN', 'Raw SQL needs the service key');
}

/** The platform client writes SQLite-style `?` placeholders; PostgreSQL wants $1, $2, ... */
export function numberPlaceholders(query: string): string {
  if (/\$\d/.test(query)) return query;
  let n = 0;
  // Skips quoted strings and identifiers so a literal '?' is left alone.
  return query.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}

function present(result: pg.QueryResult) {
  return {
    rows: result.rows,
    columns: result.fields.map((f) => f.name),
    rowCount: result.rowCount ?? result.rows.length,
  };
}

export function registerRawSqlRoutes(app: FastifyInstance, pool: pg.Pool) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post('/api/db/:projectId/sql', { schema: { body: ZSqlBody } }, async (request) => {
    requireServiceKey(request.caller);
    const started = performance.now();
    const result = await pool.query(numberPlaceholders(request.body.query), request.body.params);
    return { ...present(result), executionTime: Math.round(performance.now() - started) };
  });

  typed.post('/api/db/:projectId/batch', { schema: { body: ZBatchBody } }, async (request) => {
    requireServiceKey(request.caller);
    const started = performance.now();
    const { statements, mode } = request.body;
    const results = await transaction(
      pool,
      async (client) => {
        const out = [];
        for (const s of statements) out.push(present(await client.query(numberPlaceholders(s.sql), s.args)));
        return out;
      },
      mode === 'read' ? 'BEGIN READ ONLY' : 'BEGIN',
    );
    return { results, executionTime: Math.round(performance.now() - started), success: true };
  });
}
