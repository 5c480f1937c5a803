import type pg from 'pg';
import { ApiError } from '../errors.js';
import { hashToken, opaqueToken } from './tokens.js';

export type OneTimeKind = 'magic' | 'reset' | 'verify' | 'oauth';

const lifetimes: Record<OneTimeKind, number> = { magic: 15 * 60, reset: 60 * 60, verify: 24 * 3600, oauth: 60 };

export async function createOneTimeToken(
  pool: pg.Pool,
  opts: { kind: OneTimeKind; email: string; redirectUrl?: string; displayName?: string },
) {
  const { token, hash } = opaqueToken(opts.kind);
  const { rows } = await pool.query<{ expires_at: Date }>(
    `INSERT INTO auth_one_time_tokens (token_hash, kind, email, redirect_url, display_name, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING expires_at`,
    [hash, opts.kind, opts.email, opts.redirectUrl ?? null, opts.displayName ?? null, lifetimes[opts.kind]],
  );
  return { token, expiresAt: rows[0]!.expires_at.toISOString() };
}

/**
 * Uses up a one-time token, atomically: a second use, another kind's token or an unknown
 * token all fail alike; an expired one says so.
 */
export async function consumeOneTimeToken(
  db: pg.Pool | pg.PoolClient,
  kind: OneTimeKind,
  token: unknown,
): Promise<{ email: string; redirectUrl: string | null; displayName: string | null }> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) {
    throw new ApiError('VERIFICATION_FAILED', 'Verification failed. Please try again.');
  }
  const { rows } = await db.query<{
    email: string;
    redirect_url: string | null;
    display_name: string | null;
    expired: boolean;
  }>(
    `UPDATE auth_one_time_tokens SET used_at = now()
     WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL
     RETURNING email, redirect_url, display_name, expires_at < now() AS expired`,
    [hashToken(token), kind],
  );
  const row = rows[0];
  if (!row) throw new ApiError('VERIFICATION_FAILED', 'Verification failed. Please try again.');
  if (row.expired) {
    if (kind === 'magic') throw new ApiError('MAGIC_LINK_EXPIRED', 'Magic link has expired. Please request a new one.');
    throw new ApiError('VERIFICATION_FAILED', 'This link has expired. Please request a new one.');
  }
  return { email: row.email, redirectUrl: row.redirect_url, displayName: row.display_name };
}
