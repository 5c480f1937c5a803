import type pg from 'pg';
import { newMessageId, recordEmail } from './email-log.js';
import { findHrefs, findLinks } from './html.js';
import type { EmailMessage, Mailer } from './mailer.js';

/** A readable console summary: whoever runs the server locally can click the sign-in link. */
export function summarizeEmail(id: string, message: EmailMessage & { from: string }): string {
  const links = message.text ? findLinks(message.text) : findHrefs(message.html ?? '');
  return [
    `Email ${id} (outbox, not delivered)`,
    `  From:    ${message.from}`,
    `  To:      ${message.to.join(', ')}`,
    ...(message.cc?.length ? [`  Cc:      ${message.cc.join(', ')}`] : []),
    `  Subject: ${message.subject}`,
    ...links.map((link) => `  Link:    ${link}`),
  ].join('\n');
}

/**
 * The default driver: nothing leaves the machine. Each message is stored in email_outbox
 * (readable at /dev/outbox outside production) and summarized through `log`.
 */
export function createOutboxMailer({
  smtpFrom,
  pool,
  log,
}: {
  smtpFrom: string;
  pool: pg.Pool;
  log: (msg: string) => void;
}): Mailer {
  return {
    async send(message) {
      const id = newMessageId();
      const from = message.from ?? smtpFrom;
      await recordEmail(pool, { ...message, id, from, driver: 'outbox', status: 'sent' });
      log(summarizeEmail(id, { ...message, from }));
      return { messageId: id, from, to: message.to };
    },
  };
}
