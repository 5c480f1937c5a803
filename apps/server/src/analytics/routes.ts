import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { ZLogBody } from './schemas.js';
import { logEvents } from './service.js';

/** Ten events with generous custom data fit many times over; more is not a browser's batch. */
const LOG_BODY_LIMIT = 64 * 1024;
/** Per address: a busy page sends a batch every 3 s at most, 20 a minute. */
const LOG_RATE_LIMIT = { max: 120, timeWindow: 60_000 };

/** Signed-in users are credited; anonymous posts are welcome; a bad token is refused (the client refreshes). */
function userIdOf(request: FastifyRequest): string | null {
  const caller = request.caller;
  if (caller.kind === 'invalid') throw caller.error;
  return caller.kind === 'user' ? caller.userId : null;
}

/**
 * POST /api/analytics/{pid}/log (PLATFORM_API.md section 9): stores a batch of 1 to 10
 * events for anyone, signed in or not, limited per IP address.
 */
export function registerAnalyticsRoutes(app: FastifyInstance, { pool }: { pool: pg.Pool }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/analytics/:projectId/log',
    {
      bodyLimit: LOG_BODY_LIMIT,
      config: { rateLimit: LOG_RATE_LIMIT },
      // The token before the body: a 401 lets the client refresh and send the same batch again.
      preValidation: async (request) => void userIdOf(request),
      schema: { body: ZLogBody },
    },
    async (request) => {
      const count = await logEvents(pool, {
        userId: userIdOf(request),
        userAgent: request.headers['user-agent'],
        events: request.body.events,
      });
      return { success: true, count };
    },
  );
}
