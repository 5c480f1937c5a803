import type pg from 'pg';
import { createOutboxMailer } from './outbox.js';
import { createSmtpMailer } from './smtp.js';

/** One email as the server hands it to a driver; recipients are plain addresses. */
export interface EmailMessage {
  to: string[];
  subject: string;
  html?: string;
  text?: string;
  /** Unset: the configured sender (SMTP_FROM). */
  from?: string;
  replyTo?: string;
  cc?: string[];
  bcc?: string[];
}

export interface SentEmail {
  messageId: string;
  from: string;
  to: string[];
}

/** The capability every email driver offers. */
export interface Mailer {
  /** Sends (or, for the outbox, records) the message; throws ApiError SERVICE_UNAVAILABLE when a relay fails. */
  send(message: EmailMessage): Promise<SentEmail>;
}

export interface MailerOptions {
  /** smtp://user:pass@host:587 or smtps://...; unset selects the outbox driver. */
  smtpUrl?: string;
  /** The default sender, e.g. `FieldAssist <noreply@example.com>`. */
  smtpFrom: string;
  pool: pg.Pool;
  /** Where the outbox prints its summaries and the SMTP driver its failures. */
  log: (msg: string) => void;
}

/** Picks the driver from config: SMTP when a relay is configured, else the local outbox. */
export function createMailer(options: MailerOptions): Mailer {
  const { smtpUrl, ...rest } = options;
  return smtpUrl ? createSmtpMailer({ ...rest, smtpUrl }) : createOutboxMailer(rest);
}
