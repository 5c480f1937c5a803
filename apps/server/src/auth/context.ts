import type pg from 'pg';
import type { ResolvedConfig } from '../config.js';
import type { Mailer } from '../notify/mailer.js';
import { type Account, type AccountRules, presentUser, recordSignIn, roleOf } from './accounts.js';
import { startSession } from './sessions.js';
import type { TokenSigner } from './tokens.js';

/** What the auth services need; built once in app.ts. */
export interface AuthContext {
  pool: pg.Pool;
  signer: TokenSigner;
  mailer: Mailer;
  rules: AccountRules;
  config: ResolvedConfig;
}

/** Completes any sign-in: records it, starts a session, answers tokens plus the user. */
export async function completeSignIn(ctx: AuthContext, account: Account, opts: { emailVerified?: boolean } = {}) {
  const updated = await recordSignIn(ctx.pool, account, ctx.rules, opts);
  const tokens = await startSession(ctx.pool, ctx.signer, updated);
  return { ...tokens, user: presentUser(updated, await roleOf(ctx.pool, updated.email, ctx.rules)) };
}

/** A link into the hosted page at /auth with the given query parameters. */
export function hostedPageLink(ctx: AuthContext, params: Record<string, string | undefined>): string {
  const url = new URL('/auth', ctx.config.publicUrl);
  for (const [key, value] of Object.entries(params)) if (value) url.searchParams.set(key, value);
  return url.toString();
}
