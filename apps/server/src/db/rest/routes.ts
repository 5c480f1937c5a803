import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseRestQuery } from './parse-query.js';
import { type RestContext, deleteRows, insertRows, selectRows, updateRows } from './service.js';

type Params = { table: string };

function callOf(request: FastifyRequest<{ Params: Params }>) {
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  return { table: request.params.table, query: parseRestQuery(search), caller: request.caller };
}

function prefers(request: FastifyRequest, token: string): boolean {
  return String(request.headers.prefer ?? '')
    .split(/[,;]\s*/)
    .includes(token);
}

/** Content-Range as PostgREST writes it: `0-24/137`, or `*\/0` for an empty page. */
function contentRange(reply: FastifyReply, offset: number, length: number, total: number) {
  reply.header('content-range', length ? `${offset}-${offset + length - 1}/${total}` : `*/${total}`);
}

/**
 * The database REST API of PLATFORM_API.md section 3 under /api/db/{projectId}/rest/v1.
 * Writes always answer with the affected rows, which every client call accepts.
 */
export function registerRestRoutes(app: FastifyInstance, ctx: RestContext) {
  const url = '/api/db/:projectId/rest/v1/:table';

  app.get<{ Params: Params }>(url, async (request, reply) => {
    const { rows, total, offset } = await selectRows(ctx, {
      ...callOf(request),
      withCount: prefers(request, 'count=exact'),
    });
    if (total !== undefined) contentRange(reply, offset, rows.length, total);
    return rows;
  });

  const written = (table: string, rows: Record<string, unknown>[]) => {
    if (rows.length) ctx.onWrite?.({ table, rows });
    return rows;
  };

  app.post<{ Params: Params }>(url, async (request, reply) => {
    reply.status(201);
    return written(request.params.table, await insertRows(ctx, { ...callOf(request), body: request.body }));
  });

  app.patch<{ Params: Params }>(url, async (request) =>
    written(request.params.table, await updateRows(ctx, { ...callOf(request), body: request.body })),
  );

  app.delete<{ Params: Params }>(url, async (request) =>
    written(request.params.table, await deleteRows(ctx, callOf(request))),
  );
}
