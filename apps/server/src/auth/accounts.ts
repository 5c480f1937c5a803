import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import type { Role } from './caller.js';

export interface Account {
  id: string;
  email: string;
  password_hash: string | null;
  email_verified: boolean;
  display_name: string | null;
  photo_url: string | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export interface AccountRules {
  signupMode: 'invite' | 'open';
  adminEmails: string[];
}

const ZEmail = z.email();

/** Emails are compared and stored lower-case; SPEC.md's 'Please enter a valid email address.' */
export function normaliseEmail(email: unknown): string {
  const value = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!ZEmail.safeParse(value).success || value.length > 254)
    throw new ApiError('INVALID_EMAIL', 'Please enter a valid email address.');
  return value;
}

export async function findAccountByEmail(db: pg.Pool | pg.PoolClient, email: string): Promise<Account | undefined> {
  return (await db.query<Account>('SELECT * FROM auth_accounts WHERE lower(email) = $1', [email])).rows[0];
}

export async function findAccountById(db: pg.Pool | pg.PoolClient, id: string): Promise<Account | undefined> {
  return (await db.query<Account>('SELECT * FROM auth_accounts WHERE id = $1', [id])).rows[0];
}

export async function roleOf(db: pg.Pool | pg.PoolClient, email: string, rules: AccountRules): Promise<Role | null> {
  if (rules.adminEmails.includes(email)) return 'admin';
  const { rows } = await db.query<{ role: Role }>('SELECT role FROM user_roles WHERE lower(user_id) = $1', [email]);
  return rows[0]?.role ?? null;
}

/**
 * Who may have an account: the first one on a fresh install (it becomes admin), ADMIN_EMAILS,
 * anyone with SIGNUP_MODE=open, and otherwise only emails an admin has added (a users or
 * userRoles row). Runs inside the account-creating transaction, under a lock, so two
 * first sign-ups cannot both become admin.
 */
export async function admitNewAccount(
  client: pg.PoolClient,
  email: string,
  rules: AccountRules,
): Promise<{ firstAccount: boolean }> {
  await client.query('SELECT pg_advisory_xact_lock(7424002)');
  const { rows } = await client.query<{ first: boolean; invited: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM auth_accounts) AS first,
            EXISTS (SELECT 1 FROM users WHERE lower(email) = $1) OR EXISTS (SELECT 1 FROM user_roles WHERE lower(user_id) = $1) AS invited`,
    [email],
  );
  const { first, invited } = rows[0]!;
  if (!first && !invited && rules.signupMode !== 'open' && !rules.adminEmails.includes(email)) {
    throw new ApiError('SIGNUP_NOT_ALLOWED', 'This email has not been invited. Ask an admin to add you.');
  }
  return { firstAccount: first };
}

/** True when admitNewAccount would let this email in (checked before sending a sign-in link). */
export async function mayHaveAccount(pool: pg.Pool, email: string, rules: AccountRules): Promise<boolean> {
  if (rules.signupMode === 'open' || rules.adminEmails.includes(email)) return true;
  const { rows } = await pool.query<{ ok: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM auth_accounts) OR EXISTS (SELECT 1 FROM auth_accounts WHERE lower(email) = $1)
            OR EXISTS (SELECT 1 FROM users WHERE lower(email) = $1) OR EXISTS (SELECT 1 FROM user_roles WHERE lower(user_id) = $1) AS ok`,
    [email],
  );
  return rows[0]!.ok;
}

export async function createAccount(
  client: pg.PoolClient,
  input: { email: string; passwordHash?: string; displayName?: string; emailVerified: boolean },
  rules: AccountRules,
): Promise<Account> {
  const { firstAccount } = await admitNewAccount(client, input.email, rules);
  const id = `usr_${randomBytes(12).toString('hex')}`;
  // Without a name of its own, the account takes the one an admin gave at invitation (the users row).
  const { rows } = await client.query<Account>(
    `INSERT INTO auth_accounts (id, email, password_hash, display_name, email_verified)
     VALUES ($1, $2, $3, COALESCE($4, (SELECT display_name FROM users WHERE lower(email) = lower($2) LIMIT 1)), $5) RETURNING *`,
    [id, input.email, input.passwordHash ?? null, input.displayName || null, input.emailVerified],
  );
  if (firstAccount || rules.adminEmails.includes(input.email)) {
    await client.query(
      `INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, 'admin', 'system')
       ON CONFLICT (user_id) DO UPDATE SET role = 'admin', updated_at = now()`,
      [`role_${randomBytes(12).toString('hex')}`, input.email],
    );
  }
  return rows[0]!;
}

/**
 * Records a sign-in: the account's lastSignIn and the product's users row of SPEC.md
 * section 3 (created on the first sign-in; keeps what the user or an admin set).
 */
export async function recordSignIn(
  db: pg.Pool | pg.PoolClient,
  account: Account,
  rules: AccountRules,
  opts: { emailVerified?: boolean } = {},
): Promise<Account> {
  const { rows } = await db.query<Account>(
    `UPDATE auth_accounts SET last_sign_in_at = now(), email_verified = email_verified OR $2 WHERE id = $1 RETURNING *`,
    [account.id, opts.emailVerified ?? false],
  );
  const updated = rows[0]!;
  const role = await roleOf(db, updated.email, rules);
  await db.query(
    `INSERT INTO users (id, email, email_verified, display_name, avatar_url, role, last_sign_in)
     VALUES ($1, $1, $2, $3, $4, $5, now())
     ON CONFLICT (id) DO UPDATE SET email_verified = EXCLUDED.email_verified, last_sign_in = now(), role = EXCLUDED.role,
       display_name = COALESCE(users.display_name, EXCLUDED.display_name), avatar_url = COALESCE(users.avatar_url, EXCLUDED.avatar_url)`,
    [updated.email, updated.email_verified ? 1 : 0, updated.display_name, updated.photo_url, role],
  );
  return updated;
}

/** The user object of PLATFORM_API.md section 2.2: exactly these fields leave the server. */
export function presentUser(account: Account, role: Role | null) {
  return {
    id: account.id,
    email: account.email,
    displayName: account.display_name,
    photoURL: account.photo_url,
    emailVerified: account.email_verified,
    createdAt: account.created_at.toISOString(),
    lastSignInAt: account.last_sign_in_at?.toISOString() ?? null,
    role,
  };
}
