import { canDeleteManuals, canManageRoles, canWriteLibrary, seesSystemPlanners } from '@fieldassist/client/roles';
import { type Caller, requireSignedIn } from '../auth/caller.js';
import type { Action, Permission } from '../db/rest/policy.js';
import { ident, raw, sql } from '../db/sql.js';
import { ApiError } from '../errors.js';
import { manualVisibleTo } from './manuals/visibility.js';

export type { Action, Permission };

type Rule = (caller: Caller) => Permission;
export type TablePolicy = Record<Action, Rule>;
type User = Extract<Caller, { kind: 'user' }>;

const anyone = {};

/** The service key passes every rule; signed-out callers none; users go to `rule`. */
const forUsers =
  (rule: (user: User) => Permission): Rule =>
  (caller) => {
    requireSignedIn(caller);
    if (caller.kind === 'service') return anyone;
    return rule(caller);
  };

type Allows = (role: User['role']) => boolean;
const roleIn = (allows: Allows, message: string) => (user: User) => {
  if (!allows(user.role)) throw new ApiError('FORBIDDEN', message);
};

const serverOnly = forUsers(() => {
  throw new ApiError('FORBIDDEN', 'This table is written by the server');
});

/** Jobs and chat history belong to their owner alone (SPEC.md section 6). */
function ownedRows(noun: string): TablePolicy {
  const mine = (user: User) => sql`"user_id" = ${user.userId}`;
  const ownRow = (user: User) => (row: Record<string, unknown>) => {
    if (row.user_id !== undefined && row.user_id !== user.userId)
      throw new ApiError('FORBIDDEN', `You can only write your own ${noun}`);
  };
  return {
    list: forUsers((user) => ({ where: mine(user) })),
    get: forUsers((user) => ({ where: mine(user) })),
    create: forUsers((user) => ({
      check: (row) => {
        if (row.user_id !== user.userId) throw new ApiError('FORBIDDEN', `You can only write your own ${noun}`);
      },
    })),
    update: forUsers((user) => ({ where: mine(user), check: ownRow(user) })),
    delete: forUsers((user) => ({ where: mine(user) })),
  };
}

// Which manuals a user sees: the one visibility rule, also used by retrieval and file access.
const visibleManuals = (user: User): Permission => ({ where: raw(manualVisibleTo(user.role)) });
const ofVisibleManual = (user: User): Permission => ({
  where: raw(`"manual_id" IN (SELECT "id" FROM "manuals" WHERE ${manualVisibleTo(user.role)})`),
});

/** A library table: every signed-in user reads; those the role model lets write the library write. */
function libraryTable(opts: {
  read: (user: User) => Permission;
  createMessage: string;
  deletes: Allows;
  deleteMessage: string;
  check?: (user: User, row: Record<string, unknown>) => void;
}): TablePolicy {
  const write = (message: string) =>
    forUsers((user) => {
      roleIn(canWriteLibrary, message)(user);
      return { ...opts.read(user), check: opts.check && ((row) => opts.check!(user, row)) };
    });
  return {
    list: forUsers(opts.read),
    get: forUsers(opts.read),
    create: write(opts.createMessage),
    update: write(opts.createMessage),
    delete: forUsers((user) => {
      roleIn(opts.deletes, opts.deleteMessage)(user);
      return opts.read(user);
    }),
  };
}

const adminOrOwnEmail =
  (column: string) =>
  (user: User): Permission =>
    canManageRoles(user.role) ? anyone : { where: sql`lower(${ident(column)}) = ${user.email}` };

/**
 * The tables of the REST API and their policies, in the spirit of PocketBase API rules:
 * locked unless a rule opens them. Unknown tables, and the platform's own, have none.
 */
export const policies: Record<string, TablePolicy> = {
  jobs: ownedRows('jobs'),
  chat_messages: ownedRows('chat messages'),

  release_versions: libraryTable({
    read: () => anyone,
    createMessage: 'You do not have permission to create versions',
    deletes: canDeleteManuals,
    deleteMessage: 'Only admins can delete versions',
  }),
  tags: libraryTable({
    read: () => anyone,
    createMessage: 'You do not have permission to create tags',
    deletes: canDeleteManuals,
    deleteMessage: 'Only admins can delete tags',
  }),
  manuals: libraryTable({
    read: visibleManuals,
    createMessage: 'You do not have permission to upload manuals',
    deletes: canDeleteManuals,
    deleteMessage: 'Only admins can delete manuals',
    check: (user, row) => {
      if (row.document_type === 'system_planner' && !seesSystemPlanners(user.role))
        throw new ApiError('FORBIDDEN', 'You do not have permission to upload system planners');
    },
  }),
  manual_tags: libraryTable({
    read: ofVisibleManual,
    createMessage: 'You do not have permission to upload manuals',
    deletes: canWriteLibrary,
    deleteMessage: 'You do not have permission to upload manuals',
  }),
  manual_content: {
    list: forUsers(ofVisibleManual),
    get: forUsers(ofVisibleManual),
    create: serverOnly,
    update: serverOnly,
    delete: serverOnly,
  },

  user_roles: {
    list: forUsers(adminOrOwnEmail('user_id')),
    get: forUsers(adminOrOwnEmail('user_id')),
    create: forUsers((user) => (roleIn(canManageRoles, 'Only admins can assign user roles')(user), anyone)),
    update: forUsers((user) => (roleIn(canManageRoles, 'Only admins can assign user roles')(user), anyone)),
    delete: forUsers((user) => (roleIn(canManageRoles, 'Only admins can delete user roles')(user), anyone)),
  },

  users: {
    list: forUsers(adminOrOwnEmail('id')),
    get: forUsers(adminOrOwnEmail('id')),
    create: forUsers((user) => (roleIn(canManageRoles, 'Only admins can add users')(user), anyone)),
    // A user changes their own name, phone and avatar; email, role and flags are not theirs to set.
    update: forUsers((user) => ({
      ...adminOrOwnEmail('id')(user),
      check: (row) => {
        const other = Object.keys(row).find(
          (column) => !['display_name', 'phone', 'avatar_url', 'updated_at'].includes(column),
        );
        if (other) throw new ApiError('FORBIDDEN', `You cannot change ${other}`);
      },
    })),
    delete: serverOnly, // accounts are deleted through DELETE /api/auth/account
  },
};

export const restTables = Object.keys(policies);

/** Asks the table's policy; unknown tables (and the platform's own) are refused alike. */
export function authorize(table: string, action: Action, caller: Caller): Permission {
  const policy = Object.hasOwn(policies, table) ? policies[table] : undefined;
  if (!policy) throw new ApiError('UNKNOWN_TABLE', `Unknown table '${table.slice(0, 64)}'`);
  return policy[action](caller);
}
