import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { EmailMessage } from './mailer.js';

/** Every message either driver handled, as stored in email_outbox (migration 002). */
export interface EmailRecord extends EmailMessage {
  id: string;
  from: string;
  driver: 'outbox' | 'smtp';
  status: 'sent' | 'failed';
  error?: string;
}

export interface StoredEmail extends EmailRecord {
  createdAt: string;
}

export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

export async function recordEmail(pool: pg.Pool, record: EmailRecord): Promise<void> {
  await pool.query(
    `INSERT INTO email_outbox (id, to_addresses, cc, bcc, from_address, reply_to, subject, html, text, driver, status, error)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      record.id,
      record.to,
      record.cc ?? [],
      record.bcc ?? [],
      record.from,
      record.replyTo ?? null,
      record.subject,
      record.html ?? null,
      record.text ?? null,
      record.driver,
      record.status,
      record.error ?? null,
    ],
  );
}

interface EmailRow {
  id: string;
  to_addresses: string[];
  cc: string[];
  bcc: string[];
  from_address: string;
  reply_to: string | null;
  subject: string;
  html: string | null;
  text: string | null;
  driver: 'outbox' | 'smtp';
  status: 'sent' | 'failed';
  error: string | null;
  created_at: Date;
}

function presentEmail(row: EmailRow): StoredEmail {
  return {
    id: row.id,
    to: row.to_addresses,
    cc: row.cc,
    bcc: row.bcc,
    from: row.from_address,
    replyTo: row.reply_to ?? undefined,
    subject: row.subject,
    html: row.html ?? undefined,
    text: row.text ?? undefined,
    driver: row.driver,
    status: row.status,
    error: row.error ?? undefined,
    createdAt: row.created_at.toISOString(),
  };
}

/** The newest messages first; `to` keeps those addressed to that recipient (case-insensitive). */
export async function listRecentEmails(
  pool: pg.Pool,
  { limit, to }: { limit: number; to?: string },
): Promise<StoredEmail[]> {
  const { rows } = await pool.query<EmailRow>(
    `SELECT * FROM email_outbox
     WHERE $2::text IS NULL OR lower($2) IN (SELECT lower(a) FROM unnest(to_addresses || cc || bcc) AS a)
     ORDER BY created_at DESC LIMIT $1`,
    [limit, to ?? null],
  );
  return rows.map(presentEmail);
}
