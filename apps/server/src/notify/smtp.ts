import nodemailer from 'nodemailer';
import type pg from 'pg';
import { ApiError } from '../errors.js';
import { newMessageId, recordEmail } from './email-log.js';
import type { Mailer } from './mailer.js';

/** `Name <a@b.c>` or `a@b.c` → the domain, for a Message-ID the relay will not rewrite. */
function domainOf(from: string): string {
  return /@([^\s<>@]+?)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/**
 * Relays through the SMTP server in SMTP_URL (smtp:// upgrades with STARTTLS when offered,
 * smtps:// is TLS from the start). Sent and failed messages are both recorded, so a
 * failed sign-in email can be found in email_outbox with the relay's reason.
 */
export function createSmtpMailer({
  smtpUrl,
  smtpFrom,
  pool,
  log,
}: {
  smtpUrl: string;
  smtpFrom: string;
  pool: pg.Pool;
  log: (msg: string) => void;
}): Mailer {
  // nodemailer waits minutes by default; a request waiting on the relay should not.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      const id = newMessageId();
      const from = message.from ?? smtpFrom;
      const record = { ...message, id, from, driver: 'smtp' as const };
      try {
        await transport.sendMail({
          messageId: `<${id}@${domainOf(from)}>`,
          from,
          to: message.to,
          cc: message.cc,
          bcc: message.bcc,
          replyTo: message.replyTo,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await recordEmail(pool, { ...record, status: 'failed', error: reason });
        log(`Email ${id} to ${message.to.join(', ')} could not be sent: ${reason}`);
        throw new ApiError('SERVICE_UNAVAILABLE', 'Email could not be sent');
      }
      await recordEmail(pool, { ...record, status: 'sent' });
      return { messageId: id, from, to: message.to };
    },
  };
}
