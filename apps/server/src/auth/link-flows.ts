import { transaction } from '../db/pool.js';
import { ApiError } from '../errors.js';
import { magicLinkEmail, verificationEmail } from '../notify/templates.js';
import { createAccount, findAccountByEmail, findAccountById, mayHaveAccount, normaliseEmail } from './accounts.js';
import type { Caller } from './caller.js';
import { type AuthContext, completeSignIn, hostedPageLink } from './context.js';
import { consumeOneTimeToken, createOneTimeToken } from './one-time-tokens.js';

/**
 * A sign-in link. It opens the hosted page, which signs in only when the person presses
 * its button (a POST): mail scanners that open every link cannot use it up.
 */
export async function createMagicLink(ctx: AuthContext, email: string, redirectUrl?: string) {
  const { token, expiresAt } = await createOneTimeToken(ctx.pool, { kind: 'magic', email, redirectUrl });
  return {
    token,
    expiresAt,
    magicUrl: hostedPageLink(ctx, { magic_token: token, redirect_url: redirectUrl, project_id: ctx.config.projectId }),
  };
}

/** Emails a sign-in link to an email that may have an account; answers alike either way. */
export async function sendMagicLink(ctx: AuthContext, input: { email: string; redirectUrl?: string }) {
  const email = normaliseEmail(input.email);
  if (!(await mayHaveAccount(ctx.pool, email, ctx.rules))) return;
  const { magicUrl } = await createMagicLink(ctx, email, input.redirectUrl);
  await ctx.mailer.send({ to: [email], ...magicLinkEmail({ link: magicUrl, appName: 'FieldAssist' }) });
}

/** Signs in with an email proven some other way (a sign-in link, an OAuth provider). */
export async function signInWithProvenEmail(ctx: AuthContext, email: string, profile: { displayName?: string } = {}) {
  const account = await transaction(ctx.pool, async (client) => {
    return (
      (await findAccountByEmail(client, email)) ??
      createAccount(client, { email, displayName: profile.displayName, emailVerified: true }, ctx.rules)
    );
  });
  return completeSignIn(ctx, account, { emailVerified: true });
}

export async function verifyMagicLink(ctx: AuthContext, token: string) {
  if (!token) throw new ApiError('VERIFICATION_FAILED', 'No magic link token found');
  const { email, redirectUrl } = await consumeOneTimeToken(ctx.pool, 'magic', token);
  return { ...(await signInWithProvenEmail(ctx, email)), redirectUrl };
}

export async function createEmailVerification(ctx: AuthContext, caller: Extract<Caller, { kind: 'user' }>) {
  const account = await findAccountById(ctx.pool, caller.userId);
  if (!account) throw new ApiError('USER_NOT_FOUND', 'User not found. Please check your email and try again.');
  if (account.email_verified) throw new ApiError('VERIFICATION_FAILED', 'This email address is already verified.');
  const { token, expiresAt } = await createOneTimeToken(ctx.pool, { kind: 'verify', email: account.email });
  return {
    token,
    expiresAt,
    verifyUrl: hostedPageLink(ctx, { verify_token: token, project_id: ctx.config.projectId }),
    email: account.email,
  };
}

export async function sendEmailVerification(ctx: AuthContext, caller: Extract<Caller, { kind: 'user' }>) {
  const { verifyUrl, email } = await createEmailVerification(ctx, caller);
  await ctx.mailer.send({ to: [email], ...verificationEmail({ link: verifyUrl }) });
}

export async function verifyEmail(ctx: AuthContext, token: string) {
  const { email } = await consumeOneTimeToken(ctx.pool, 'verify', token);
  const { rowCount } = await ctx.pool.query(
    'UPDATE auth_accounts SET email_verified = true, updated_at = now() WHERE lower(email) = $1 AND NOT email_verified',
    [email],
  );
  if (!rowCount) throw new ApiError('VERIFICATION_FAILED', 'Verification failed. Please try again.');
  await ctx.pool.query('UPDATE users SET email_verified = 1, updated_at = now() WHERE id = $1', [email]);
}
