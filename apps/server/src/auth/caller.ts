import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Role } from '@fieldassist/client/roles';
import type pg from 'pg';
import { ApiError } from '../errors.js';
import type { TokenSigner } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every /api request by the onRequest hook in app.ts. */
    caller: Caller;
  }
}

export type { Role };

/** Who is calling: the server's service key, a signed-in user, or nobody. */
export type Caller =
  | { kind: 'service' }
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; email: string; role: Role | null; sessionId: string }
  /** A bearer that is not valid (expired, revoked, forged): refused where a caller is needed. */
  | { kind: 'invalid'; error: ApiError };

export interface CallerDeps {
  serviceKey: string;
  signer: TokenSigner;
  pool: pg.Pool;
  adminEmails: string[];
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Reads the caller from `Authorization: Bearer ...`: the service key, or an access token
 * whose account still exists and whose session has not been signed out. The role is read
 * on every request, so a changed role applies at once.
 */
export function resolveCaller(request: FastifyRequest, deps: CallerDeps): Caller | Promise<Caller> {
  const header = request.headers.authorization;
  if (!header) return { kind: 'anonymous' };
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match)
    return { kind: 'invalid', error: new ApiError('INVALID_TOKEN', 'Authorization header must be "Bearer <token>"') };
  return callerFromToken(match[1]!, deps);
}

/** The caller a bearer token names (the service key or a user's access token), as for HTTP. */
export function callerFromToken(token: string, deps: CallerDeps): Caller | Promise<Caller> {
  if (sameSecret(token, deps.serviceKey)) return { kind: 'service' };
  // Only a user's token needs the database (is the session still open? which role?).
  return userCaller(token, deps).catch((error: unknown) => {
    if (error instanceof ApiError) return { kind: 'invalid', error };
    throw error;
  });
}

async function userCaller(token: string, deps: CallerDeps): Promise<Caller> {
  const claims = await deps.signer.verify(token);
  const { rows } = await deps.pool.query<{ email: string; role: Role | null; active: boolean }>(
    `SELECT a.email, r.role,
            EXISTS (SELECT 1 FROM auth_refresh_tokens t WHERE t.family_id = $2 AND t.revoked_at IS NULL AND t.expires_at > now()) AS active
     FROM auth_accounts a LEFT JOIN user_roles r ON lower(r.user_id) = lower(a.email)
     WHERE a.id = $1`,
    [claims.sub, claims.sid],
  );
  const account = rows[0];
  if (!account || !account.active) throw new ApiError('TOKEN_EXPIRED', 'Session expired. Please sign in again.');
  const email = account.email.toLowerCase();
  const role = deps.adminEmails.includes(email) ? 'admin' : account.role;
  return { kind: 'user', userId: claims.sub, email, role, sessionId: claims.sid };
}

/** Refuses callers who are not signed in: 401, with the token's own problem when it has one. */
export function requireSignedIn(caller: Caller): asserts caller is Extract<Caller, { kind: 'user' | 'service' }> {
  if (caller.kind === 'invalid') throw caller.error;
  if (caller.kind === 'anonymous') throw new ApiError('UNAUTHORIZED', 'Authentication required');
}

/** The signed-in user, or 401 for anyone else (the service key has no user). */
export function requireUser(caller: Caller): Extract<Caller, { kind: 'user' }> {
  requireSignedIn(caller);
  if (caller.kind !== 'user') throw new ApiError('UNAUTHORIZED', 'Authentication required');
  return caller;
}
