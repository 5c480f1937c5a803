import { transaction } from '../db/pool.js';
import { ApiError } from '../errors.js';
import { passwordResetEmail } from '../notify/templates.js';
import { createAccount, findAccountByEmail, findAccountById, mayHaveAccount, normaliseEmail } from './accounts.js';
import type { Caller } from './caller.js';
import { type AuthContext, completeSignIn, hostedPageLink } from './context.js';
import { consumeOneTimeToken, createOneTimeToken } from './one-time-tokens.js';
import { checkPasswordStrength, hashPassword, verifyPassword } from './passwords.js';
import { endAllSessions } from './sessions.js';

const invalidCredentials = () => new ApiError('INVALID_CREDENTIALS', 'Invalid email or password. Please try again.');

/** Creates an account with a password (if the email may have one) and signs it in. */
export async function signUp(ctx: AuthContext, input: { email: string; password: string; displayName?: string }) {
  const email = normaliseEmail(input.email);
  checkPasswordStrength(input.password);
  const displayName = input.displayName?.trim().slice(0, 200) || undefined;
  const passwordHash = await hashPassword(input.password);
  const account = await transaction(ctx.pool, async (client) => {
    if (await findAccountByEmail(client, email))
      throw new ApiError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists.');
    return createAccount(client, { email, passwordHash, displayName, emailVerified: false }, ctx.rules);
  });
  return completeSignIn(ctx, account);
}

export async function signInWithPassword(ctx: AuthContext, input: { email: string; password: string }) {
  const email = normaliseEmail(input.email);
  const account = await findAccountByEmail(ctx.pool, email);
  const ok = await verifyPassword(account?.password_hash ?? null, input.password);
  if (!account || !ok) throw invalidCredentials();
  return completeSignIn(ctx, account);
}

/** Changes the password and signs out every other session of the account. */
export async function changePassword(
  ctx: AuthContext,
  caller: Extract<Caller, { kind: 'user' }>,
  input: { oldPassword: string; newPassword: string },
) {
  const account = await findAccountById(ctx.pool, caller.userId);
  if (!account || !(await verifyPassword(account.password_hash, input.oldPassword))) throw invalidCredentials();
  checkPasswordStrength(input.newPassword);
  await ctx.pool.query('UPDATE auth_accounts SET password_hash = $2, updated_at = now() WHERE id = $1', [
    account.id,
    await hashPassword(input.newPassword),
  ]);
  await endAllSessions(ctx.pool, account.id, caller.sessionId);
}

/** A reset link for the hosted page; only for an email that has an account or may have one. */
export async function createPasswordReset(ctx: AuthContext, email: string, redirectUrl?: string) {
  const { token, expiresAt } = await createOneTimeToken(ctx.pool, { kind: 'reset', email, redirectUrl });
  return {
    token,
    expiresAt,
    resetUrl: hostedPageLink(ctx, { reset_token: token, redirect_url: redirectUrl, project_id: ctx.config.projectId }),
  };
}

/** Emails a reset link. Answers the same whether or not the email has an account. */
export async function sendPasswordReset(ctx: AuthContext, input: { email: string; redirectUrl?: string }) {
  const email = normaliseEmail(input.email);
  if (!(await findAccountByEmail(ctx.pool, email))) return;
  const { resetUrl } = await createPasswordReset(ctx, email, input.redirectUrl);
  await ctx.mailer.send({ to: [email], ...passwordResetEmail({ link: resetUrl }) });
}

/** Sets a new password from a reset link; the email is then proven, and old sessions end. */
export async function confirmPasswordReset(ctx: AuthContext, input: { token: string; password: string }) {
  checkPasswordStrength(input.password);
  const passwordHash = await hashPassword(input.password);
  await transaction(ctx.pool, async (client) => {
    const { email } = await consumeOneTimeToken(client, 'reset', input.token);
    let account = await findAccountByEmail(client, email);
    if (!account) {
      if (!(await mayHaveAccount(ctx.pool, email, ctx.rules)))
        throw new ApiError('USER_NOT_FOUND', 'User not found. Please check your email and try again.');
      account = await createAccount(client, { email, emailVerified: true }, ctx.rules);
    }
    await client.query(
      'UPDATE auth_accounts SET password_hash = $2, email_verified = true, updated_at = now() WHERE id = $1',
      [account.id, passwordHash],
    );
    await endAllSessions(client, account.id);
  });
}
