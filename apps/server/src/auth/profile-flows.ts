import { z } from 'zod';
import { transaction } from '../db/pool.js';
import { ApiError } from '../errors.js';
import { findAccountById, presentUser, roleOf } from './accounts.js';
import type { Caller } from './caller.js';
import type { AuthContext } from './context.js';

type User = Extract<Caller, { kind: 'user' }>;

export async function getMe(ctx: AuthContext, caller: User) {
  const account = await findAccountById(ctx.pool, caller.userId);
  if (!account) throw new ApiError('USER_NOT_FOUND', 'User not found. Please check your email and try again.');
  return { user: presentUser(account, await roleOf(ctx.pool, account.email, ctx.rules)) };
}

/** What a user may change about themselves; email and role are not among it. */
export const ZUpdateMeBody = z.object({
  displayName: z.string().trim().min(1).max(200).optional(),
  photoURL: z.union([z.url({ protocol: /^https?$/ }).max(2000), z.null()]).optional(),
});

export async function updateMe(ctx: AuthContext, caller: User, input: z.infer<typeof ZUpdateMeBody>) {
  await transaction(ctx.pool, async (client) => {
    await client.query(
      `UPDATE auth_accounts SET display_name = COALESCE($2, display_name), photo_url = CASE WHEN $4 THEN $3 ELSE photo_url END, updated_at = now() WHERE id = $1`,
      [caller.userId, input.displayName ?? null, input.photoURL ?? null, input.photoURL !== undefined],
    );
    await client.query(
      `UPDATE users SET display_name = COALESCE($2, display_name), avatar_url = CASE WHEN $4 THEN $3 ELSE avatar_url END, updated_at = now() WHERE id = $1`,
      [caller.email, input.displayName ?? null, input.photoURL ?? null, input.photoURL !== undefined],
    );
  });
  return getMe(ctx, caller);
}

/**
 * Deletes the account with its sessions, its users row, role, jobs and chat history. The
 * only admin cannot leave the install without one.
 */
export async function deleteAccount(ctx: AuthContext, caller: User) {
  await transaction(ctx.pool, async (client) => {
    if (caller.role === 'admin') {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT lower(user_id) AS email FROM user_roles WHERE role = 'admin' UNION SELECT unnest($1::text[])) admins
         WHERE email <> $2 AND EXISTS (SELECT 1 FROM auth_accounts WHERE lower(auth_accounts.email) = admins.email)`,
        [ctx.rules.adminEmails, caller.email],
      );
      if (rows[0]!.n === 0)
        throw new ApiError(
          'CONFLICT',
          'You are the only admin. Make someone else an admin before deleting your account.',
        );
    }
    await client.query('DELETE FROM jobs WHERE user_id = $1', [caller.userId]);
    await client.query('DELETE FROM chat_messages WHERE user_id = $1', [caller.userId]);
    await client.query('DELETE FROM user_roles WHERE lower(user_id) = $1', [caller.email]);
    await client.query('DELETE FROM users WHERE lower(id) = $1', [caller.email]);
    const { rowCount } = await client.query('DELETE FROM auth_accounts WHERE id = $1', [caller.userId]);
    if (!rowCount) throw new ApiError('USER_NOT_FOUND', 'User not found. Please check your email and try again.');
  });
}
