import type pg from 'pg';
import type { Caller } from '../../auth/caller.js';
import type { Sql } from '../sql.js';

export type Action = 'list' | 'get' | 'create' | 'update' | 'delete';

/**
 * What a caller may do to a table for one action. A policy refuses by throwing, or allows
 * with an optional row predicate (added to the SQL, so rows the caller may not see are
 * never read, and a row they may not touch looks like a missing one) and an optional
 * check of each written row.
 */
export interface Permission {
  where?: Sql;
  check?: (row: Record<string, unknown>) => void;
}

/** The tables' policies, handed to the REST service by app.ts: refuses by throwing, else a Permission. */
export type Authorize = (table: string, action: Action, caller: Caller) => Permission;

/** Told, inside the transaction of an insert, the ids of the rows a table just received. */
export type AfterInsert = (client: pg.PoolClient, change: { table: string; ids: string[] }) => Promise<void>;
