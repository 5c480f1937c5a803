import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../auth/caller.js';
import { registerErrorHandler } from '../error-handler.js';
import { createTestDatabase } from '../test-support/test-database.js';
import { createMailer, type Mailer } from './mailer.js';
import { registerNotifyRoutes } from './routes.js';

const smtpFrom = 'FieldAssist <noreply@fieldassist.test>';
const callers: Record<string, Caller> = {
  anonymous: { kind: 'anonymous' },
  service: { kind: 'service' },
  admin: { kind: 'user', userId: 'u_admin', email: 'admin@example.com', role: 'admin', sessionId: 's1' },
  technician: { kind: 'user', userId: 'u_tech', email: 'tech@example.com', role: 'technician', sessionId: 's2' },
};

/** The notify routes alone, with the real error handler; `x-test-caller` picks who calls. */
async function buildNotifyApp({
  pool,
  mailer,
  env = 'test',
}: {
  pool: pg.Pool;
  mailer: Mailer;
  env?: string;
}): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  app.addHook('onRequest', async (request) => {
    request.caller = callers[String(request.headers['x-test-caller'] ?? 'anonymous')]!;
  });
  registerNotifyRoutes(app, { mailer, pool, config: { env, smtpFrom } });
  return app;
}

let pool: pg.Pool;
let app: FastifyInstance;
beforeAll(async () => {
  ({ pool } = await createTestDatabase());
  app = await buildNotifyApp({ pool, mailer: createMailer({ smtpFrom, pool, log: () => undefined }) });
});

const send = (payload: object, caller = 'service') =>
  app.inject({
    method: 'POST',
    url: '/api/notifications/fieldassist/email',
    headers: { 'x-test-caller': caller },
    payload,
  });
const valid = { to: 'tech@example.com', subject: 'Hello', text: 'Job 12 is ready.' };

describe('POST /api/notifications/:projectId/email', () => {
  it.each(['service', 'admin'])('sends for the %s caller and answers the platform shape', async (caller) => {
    const res = await send({ ...valid, to: ['a@example.com', 'b@example.com'] }, caller);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      from: smtpFrom,
      to: ['a@example.com', 'b@example.com'],
      subject: 'Hello',
      timestamp: expect.any(String),
    });
  });

  it('refuses anonymous callers with 401 and non-admins with 403, before reading the body', async () => {
    expect((await send(valid, 'anonymous')).json()).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Authentication required',
    });
    const forbidden = await send({}, 'technician');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only admins can send email',
      error: 'Only admins can send email',
    });
  });

  it.each([
    [{ subject: 'x', text: 'x' }, 'body.to: Expected an email address or a list of them'],
    [{ to: 'a@example.com', text: 'x' }, 'body.subject: Invalid input: expected string, received undefined'],
    [{ to: 'a@example.com', subject: 'x' }, 'body: html or text is required'],
    [{ to: 'not-an-email', subject: 'x', text: 'x' }, 'body.to: Invalid email address'],
    [{ to: ['a@example.com', 'nope'], subject: 'x', text: 'x' }, 'body.to.1: Invalid email address'],
    [{ ...valid, subject: '' }, 'body.subject: Too small: expected string to have >=1 characters'],
    [
      { ...valid, attachments: [{ filename: 'a.pdf', url: 'https://x.test/a.pdf' }] },
      'body.attachments: Attachments are not supported',
    ],
  ])('answers 400 VALIDATION_ERROR naming the field for %j', async (payload, message) => {
    const res = await send(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
  });

  it('accepts an empty attachments list', async () => {
    expect((await send({ ...valid, attachments: [] })).statusCode).toBe(200);
  });

  it('uses a from without @ as the display name of the configured sender', async () => {
    const res = await send({ ...valid, from: 'Dispatch "Team"' });
    expect(res.json().from).toBe('"Dispatch Team" <noreply@fieldassist.test>');
    expect((await send({ ...valid, from: 'Ops <NOREPLY@fieldassist.test>' })).json().from).toBe(
      'Ops <NOREPLY@fieldassist.test>',
    );
  });

  it('refuses any other sender address with 403 UNVERIFIED_SENDER', async () => {
    const res = await send({ ...valid, from: 'ceo@elsewhere.test' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'UNVERIFIED_SENDER', message: 'Sender is not verified' });
  });

  it('answers 503 with a clean error when the SMTP relay is down, and records the failure', async () => {
    const down = await buildNotifyApp({
      pool,
      mailer: createMailer({ smtpUrl: 'smtp://127.0.0.1:1', smtpFrom, pool, log: () => undefined }),
    });
    const res = await down.inject({
      method: 'POST',
      url: '/api/notifications/fieldassist/email',
      headers: { 'x-test-caller': 'service' },
      payload: { ...valid, to: 'relay-down@example.com' },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Email could not be sent',
      error: 'Email could not be sent',
    });
    const { rows } = await pool.query(
      "SELECT status, driver FROM email_outbox WHERE 'relay-down@example.com' = ANY (to_addresses)",
    );
    expect(rows).toEqual([{ status: 'failed', driver: 'smtp' }]);
  });
});

describe('/dev/outbox', () => {
  it('lists the newest messages as JSON, with their links, filtered by recipient', async () => {
    await send({
      to: 'reader@example.com',
      subject: 'Sign in',
      text: 'Open http://localhost:3000/auth/magic?token=t1&r=%2F.',
    });
    const res = await app.inject({ method: 'GET', url: '/dev/outbox.json?to=reader@example.com' });
    expect(res.statusCode).toBe(200);
    const { messages } = res.json();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      to: ['reader@example.com'],
      subject: 'Sign in',
      links: ['http://localhost:3000/auth/magic?token=t1&r=%2F'],
    });
  });

  it('escapes every stored value in the page and makes links clickable', async () => {
    await send({
      to: 'xss@example.com',
      subject: '<img src=x onerror=alert(1)>',
      text: 'See https://x.test/a?b=1&c=2 "<script>"',
    });
    const res = await app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(res.body).not.toContain('<img');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain(
      '<a href="https://x.test/a?b=1&amp;c=2">https://x.test/a?b=1&amp;c=2</a> &quot;&lt;script&gt;&quot;',
    );
  });

  it('does not exist in production', async () => {
    const production = await buildNotifyApp({
      pool,
      mailer: createMailer({ smtpFrom, pool, log: () => undefined }),
      env: 'production',
    });
    expect((await production.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    expect((await production.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode).toBe(404);
  });
});
