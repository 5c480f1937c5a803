import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { transaction } from '../db/pool.js';
import { ApiError } from '../errors.js';
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, type TokenSigner, hashToken, opaqueToken } from './tokens.js';

/** The token set of PLATFORM_API.md section 2.1, as every sign-in and refresh answers it. */
export interface TokenSet {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_expires_in: number;
}

/** Inside this window a rotated refresh token returns the pair it was rotated into. */
export const REFRESH_GRACE_SECONDS = 10;

const expired = () => new ApiError('TOKEN_EXPIRED', 'Session expired. Please sign in again.');

async function issue(
  db: pg.Pool | pg.PoolClient,
  signer: TokenSigner,
  account: { id: string; email: string },
  familyId: string,
): Promise<{ tokens: TokenSet; hash: string }> {
  const refresh = opaqueToken('rt');
  await db.query(
    `INSERT INTO auth_refresh_tokens (token_hash, family_id, account_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [refresh.hash, familyId, account.id, REFRESH_TOKEN_SECONDS],
  );
  const access = await signer.sign({ sub: account.id, email: account.email, sid: familyId });
  return {
    hash: refresh.hash,
    tokens: {
      access_token: access,
      refresh_token: refresh.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_expires_in: REFRESH_TOKEN_SECONDS,
    },
  };
}

/** Starts a session (a new refresh-token family) for an account that has just signed in. */
export async function startSession(
  pool: pg.Pool,
  signer: TokenSigner,
  account: { id: string; email: string },
): Promise<TokenSet> {
  return (await issue(pool, signer, account, randomBytes(16).toString('hex'))).tokens;
}

/**
 * Rotates a refresh token: the old one stops working and a new pair is returned. Used again
 * within the grace period (two tabs refreshing at once) it returns that same pair; used
 * after it, it is taken for a stolen token and the whole family is revoked.
 */
export async function rotateSession(pool: pg.Pool, signer: TokenSigner, refreshToken: string): Promise<TokenSet> {
  return transaction(pool, async (client) => {
    const { rows } = await client.query(
      `SELECT t.family_id, t.account_id, t.rotated_at, t.successor, t.revoked_at, t.expires_at < now() AS expired,
              t.rotated_at > now() - make_interval(secs => $2) AS in_grace, a.email
       FROM auth_refresh_tokens t JOIN auth_accounts a ON a.id = t.account_id
       WHERE t.token_hash = $1 FOR UPDATE OF t`,
      [hashToken(refreshToken), REFRESH_GRACE_SECONDS],
    );
    const row = rows[0];
    if (!row || row.revoked_at || row.expired) throw expired();
    if (row.rotated_at) {
      if (row.in_grace && row.successor) return JSON.parse(signer.unseal(row.successor)) as TokenSet;
      await client.query(
        'UPDATE auth_refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL',
        [row.family_id],
      );
      return null;
    }
    const { tokens } = await issue(client, signer, { id: row.account_id, email: row.email }, row.family_id);
    await client.query('UPDATE auth_refresh_tokens SET rotated_at = now(), successor = $2 WHERE token_hash = $1', [
      hashToken(refreshToken),
      signer.seal(JSON.stringify(tokens)),
    ]);
    return tokens;
  }).then((tokens) => {
    // The revocation above is committed before the refusal is thrown.
    if (!tokens) throw expired();
    return tokens;
  });
}

/** Signs out one session: the refresh token's family stops working. Unknown tokens are ignored. */
export async function endSession(pool: pg.Pool, refreshToken: string): Promise<void> {
  await pool.query(
    `UPDATE auth_refresh_tokens SET revoked_at = now()
     WHERE family_id = (SELECT family_id FROM auth_refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL`,
    [hashToken(refreshToken)],
  );
}

/** Ends every session of an account, or every one but `keepFamily` (after a password change). */
export async function endAllSessions(
  db: pg.Pool | pg.PoolClient,
  accountId: string,
  keepFamily?: string,
): Promise<void> {
  await db.query(
    'UPDATE auth_refresh_tokens SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $2',
    [accountId, keepFamily ?? null],
  );
}

/** True while the session an access token belongs to has not been signed out. */
export async function sessionIsActive(pool: pg.Pool, familyId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    'SELECT 1 FROM auth_refresh_tokens WHERE family_id = $1 AND revoked_at IS NULL AND expires_at > now() LIMIT 1',
    [familyId],
  );
  return Boolean(rowCount);
}
