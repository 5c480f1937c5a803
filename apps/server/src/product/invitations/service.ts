import { randomBytes } from 'node:crypto';
import type { Role } from '../../auth/caller.js';
import type { AuthContext } from '../../auth/context.js';
import { createMagicLink } from '../../auth/link-flows.js';
import { transaction } from '../../db/pool.js';
import { ApiError } from '../../errors.js';
import { invitationEmail } from '../../notify/templates.js';

export interface InviteUserInput {
  /** The admin who invites: their email goes into assigned_by, their name into the email. */
  inviter: { email: string; displayName?: string | null };
  email: string;
  displayName: string;
  phone?: string;
  role: Role;
}

export interface InvitedUser {
  user: { id: string; email: string; displayName: string; phone: string | null; role: Role; createdAt: string };
  userRole: { id: string; userId: string; role: Role; assignedBy: string };
  /** False when the user was added but the email could not be handed to the mail relay. */
  invitationSent: boolean;
  /** Where the invitation went: a real mail relay (SMTP_URL), or the server's outbox (/dev/outbox) without one. */
  deliveredTo: 'email' | 'outbox';
}

/**
 * Adds a user (SPEC.md "Add User"): the users row (id = the email, section 3 fields) and the
 * userRoles row in one transaction, then emails a sign-in link that also admits the account
 * (an invited email may sign up). Throws EMAIL_ALREADY_EXISTS when the email already has a
 * users row, a role or an account. Callers check that the inviter is an admin.
 */
export async function inviteUser(
  ctx: AuthContext,
  input: InviteUserInput,
  log: (message: string) => void,
): Promise<InvitedUser> {
  const email = input.email;
  const roleId = `role_${randomBytes(12).toString('hex')}`;
  const created = await transaction(ctx.pool, async (client) => {
    // The sign-up lock: an account for this email cannot appear halfway through.
    await client.query('SELECT pg_advisory_xact_lock(7424002)');
    const { rows: existing } = await client.query(
      `SELECT 1 FROM users WHERE lower(id) = $1 OR lower(email) = $1
       UNION ALL SELECT 1 FROM user_roles WHERE lower(user_id) = $1
       UNION ALL SELECT 1 FROM auth_accounts WHERE lower(email) = $1 LIMIT 1`,
      [email],
    );
    if (existing.length > 0) throw new ApiError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists.');
    const { rows } = await client.query<{ created_at: Date }>(
      `INSERT INTO users (id, email, email_verified, display_name, phone, phone_verified, avatar_url, role)
       VALUES ($1, $1, 0, $2, $3, 0, NULL, $4) RETURNING created_at`,
      [email, input.displayName, input.phone ?? null, input.role],
    );
    await client.query(`INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, $3, $4)`, [
      roleId,
      email,
      input.role,
      input.inviter.email,
    ]);
    return rows[0]!.created_at;
  });

  let invitationSent = true;
  try {
    const { magicUrl } = await createMagicLink(ctx, email, `${ctx.config.publicUrl}/`);
    const inviterName = input.inviter.displayName || input.inviter.email;
    await ctx.mailer.send({
      to: [email],
      ...invitationEmail({ link: magicUrl, inviterName, displayName: input.displayName }),
    });
  } catch (error) {
    // The user exists and may still sign in by magic link; the admin is told nothing was sent.
    log(`invitation email to ${email} failed: ${error instanceof Error ? error.message : String(error)}`);
    invitationSent = false;
  }

  return {
    user: {
      id: email,
      email,
      displayName: input.displayName,
      phone: input.phone ?? null,
      role: input.role,
      createdAt: created.toISOString(),
    },
    userRole: { id: roleId, userId: email, role: input.role, assignedBy: input.inviter.email },
    invitationSent,
    deliveredTo: ctx.config.smtpUrl ? 'email' : 'outbox',
  };
}
