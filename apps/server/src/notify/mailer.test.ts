import { once } from 'node:events';
import { createServer } from 'node:net';
import type pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/test-database.js';
import { listRecentEmails } from './email-log.js';
import { createMailer } from './mailer.js';
import { magicLinkEmail } from './templates.js';

let pool: pg.Pool;
beforeAll(async () => {
  ({ pool } = await createTestDatabase());
});

const smtpFrom = 'FieldAssist <noreply@fieldassist.test>';

interface Received {
  from: string;
  to: string[];
  raw: string;
  user?: string;
}

/** A real SMTP peer on loopback; it accepts any login and keeps what it receives. */
async function startSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true, // loopback, no TLS: the test checks that the URL's login is used
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A loopback port nobody listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('outbox driver', () => {
  it('records the message and prints a summary with its links', async () => {
    const lines: string[] = [];
    const mailer = createMailer({ smtpFrom, pool, log: (line) => lines.push(line) });
    const email = magicLinkEmail({ link: 'http://localhost:3000/auth/magic?token=abc&x=1', appName: 'FieldAssist' });
    const sent = await mailer.send({ to: ['tech@example.com'], ...email });

    expect(sent).toEqual({
      messageId: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      from: smtpFrom,
      to: ['tech@example.com'],
    });
    const [stored] = await listRecentEmails(pool, { limit: 1, to: 'TECH@example.com' });
    expect(stored).toMatchObject({
      id: sent.messageId,
      driver: 'outbox',
      status: 'sent',
      subject: 'Sign in to FieldAssist',
      from: smtpFrom,
      text: email.text,
    });
    expect(lines.join('\n')).toContain('Subject: Sign in to FieldAssist');
    expect(lines.join('\n')).toContain('To:      tech@example.com');
    expect(lines.join('\n')).toContain('Link:    http://localhost:3000/auth/magic?token=abc&x=1');
  });
});

describe('SMTP driver', () => {
  it('relays the exact message through a real SMTP server and records it', async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://relay-user:relay-pass@127.0.0.1:${smtp.port}`,
        smtpFrom,
        pool,
        log: () => undefined,
      });
      const sent = await mailer.send({
        to: ['a@example.com', 'b@example.com'],
        cc: ['c@example.com'],
        subject: 'Pump 7 report',
        text: 'Pressure is back to normal.',
      });

      expect(smtp.received).toHaveLength(1);
      const [message] = smtp.received;
      expect(message).toMatchObject({
        from: 'noreply@fieldassist.test',
        to: ['a@example.com', 'b@example.com', 'c@example.com'],
        user: 'relay-user',
      });
      expect(message!.raw).toContain('Subject: Pump 7 report');
      expect(message!.raw).toContain('Pressure is back to normal.');
      expect(message!.raw).toContain(`Message-ID: <${sent.messageId}@fieldassist.test>`);
      const [stored] = await listRecentEmails(pool, { limit: 1, to: 'c@example.com' });
      expect(stored).toMatchObject({
        id: sent.messageId,
        driver: 'smtp',
        status: 'sent',
        to: ['a@example.com', 'b@example.com'],
        cc: ['c@example.com'],
      });
    } finally {
      await smtp.close();
    }
  });

  it('answers SERVICE_UNAVAILABLE when the relay is down, and records the failure', async () => {
    const logged: string[] = [];
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
      smtpFrom,
      pool,
      log: (line) => logged.push(line),
    });
    const failure = mailer.send({ to: ['down@example.com'], subject: 'Nobody home', text: 'x' });

    await expect(failure).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      message: 'Email could not be sent',
    });
    const [stored] = await listRecentEmails(pool, { limit: 1, to: 'down@example.com' });
    expect(stored).toMatchObject({ driver: 'smtp', status: 'failed', error: expect.stringMatching(/ECONNREFUSED/) });
    expect(logged.join('\n')).toContain('could not be sent');
  });
});
