import type { Caller } from '../auth/caller.js';
import type { Sql } from '../db/sql.js';
import { ApiError } from '../errors.js';

export type Action = 'list' | 'get' | 'create' | 'update' | 'delete';

/**
 * What a caller may do to a table for one action. A policy refuses by throwing, or allows
 * with an optional row predicate (added to the SQL, so rows the caller may not see are
 * never read) and an optional check of each written row.
 */
export interface Permission {
  where?: Sql;
  check?: (row: Record<string, unknown>) => void;
}

export type TablePolicy = Record<Action, (caller: Caller) => Permission>;

const serviceOnly = (caller: Caller): Permission => {
  if (caller.kind === 'service') return {};
  if (caller.kind === 'anonymous') throw new ApiError('UNAUTHORIZED', 'Authentication required');
  throw new ApiError('FORBIDDEN', 'You do not have permission to access this table');
};

const lockedTable: TablePolicy = { list: serviceOnly, get: serviceOnly, create: serviceOnly, update: serviceOnly, delete: serviceOnly };

/**
 * The tables of the REST API and their policies (PocketBase-style API rules: locked unless
 * a rule opens them). Until sign-in exists only the service key reaches them.
 */
export const policies: Record<string, TablePolicy> = {
  users: lockedTable,
  user_roles: lockedTable,
  jobs: lockedTable,
  chat_messages: lockedTable,
  release_versions: lockedTable,
  manuals: lockedTable,
  tags: lockedTable,
  manual_tags: lockedTable,
  manual_content: lockedTable,
};

export const restTables = Object.keys(policies);

/** Asks the table's policy; unknown tables (and the platform's own) are refused alike. */
export function authorize(table: string, action: Action, caller: Caller): Permission {
  const policy = Object.hasOwn(policies, table) ? policies[table] : undefined;
  if (!policy) throw new ApiError('UNKNOWN_TABLE', `Unknown table '${table.slice(0, 64)}'`);
  return policy[action](caller);
}
