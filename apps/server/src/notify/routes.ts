import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import { requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import { presentOutboxEmail, renderOutboxPage } from './dev-outbox.js';
import { listRecentEmails } from './email-log.js';
import type { Mailer } from './mailer.js';
import { sendEmail, ZSendEmailBody, ZSendEmailResponse } from './send-email.js';

export interface NotifyDeps {
  mailer: Mailer;
  pool: pg.Pool;
  /** smtpFrom is the one verified sender a `from` address may name. */
  config: { env: string; smtpFrom: string };
}

/** Email is for admins and the service key only (PLATFORM_API.md decision 4). */
async function requireEmailSender(request: FastifyRequest) {
  const caller = request.caller;
  requireSignedIn(caller);
  if (caller.kind === 'user' && caller.role !== 'admin') throw new ApiError('FORBIDDEN', 'Only admins can send email');
}

const ZOutboxQuery = z.object({ to: z.string().optional() });
const outboxLimit = 100;

export function registerNotifyRoutes(app: FastifyInstance, { mailer, pool, config }: NotifyDeps) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  // The caller is checked before the body, so a signed-out client learns nothing from a 400.
  typed.post(
    '/api/notifications/:projectId/email',
    { preValidation: requireEmailSender, schema: { body: ZSendEmailBody, response: { 200: ZSendEmailResponse } } },
    async (request) => sendEmail({ mailer, defaultFrom: config.smtpFrom, body: request.body }),
  );

  // The outbox holds sign-in links: it exists only where nobody else can be signing in.
  if (config.env === 'production') return;

  typed.get('/dev/outbox.json', { schema: { querystring: ZOutboxQuery } }, async (request) => {
    const emails = await listRecentEmails(pool, { limit: outboxLimit, to: request.query.to });
    return { messages: emails.map(presentOutboxEmail) };
  });

  typed.get('/dev/outbox', { schema: { querystring: ZOutboxQuery } }, async (request, reply) => {
    const emails = await listRecentEmails(pool, { limit: outboxLimit, to: request.query.to });
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderOutboxPage(emails));
  });
}
