import type pg from 'pg';
import type { Caller } from '../../auth/caller.js';
import { ApiError } from '../../errors.js';
import type { Action, AfterInsert, Authorize } from './policy.js';
import type { Schema, TableSchema } from '../schema.js';
import { transaction } from '../pool.js';
import { type Sql, ident, sql, toQuery } from '../sql.js';
import {
  compileCursor,
  compileDelete,
  compileInserts,
  compileOrder,
  compileReturning,
  compileUpdate,
  compileWhere,
  plainRow,
  prepareInsertRows,
  prepareUpdate,
} from './compile.js';
import type { Condition, RestQuery } from './parse-query.js';

type Row = Record<string, unknown>;

export interface RestContext {
  pool: pg.Pool;
  schema: Schema;
  maxRows: number;
  /** The tables' policies (the product's, handed over by app.ts): the only tables served. */
  authorize: Authorize;
  /** Runs inside an insert's transaction (the product queues a new manual's ingestion there). */
  afterInsert?: AfterInsert;
  /** Told of every committed write with the rows it affected (the product pushes live updates). */
  onWrite?: (change: { table: string; rows: Record<string, unknown>[] }) => void;
}

interface RestCall {
  table: string;
  query: RestQuery;
  caller: Caller;
}

/** The only filter is `id=eq.<id>`: a request about one row (get, update or delete by id). */
function singleId(query: RestQuery): string | undefined {
  const [only, ...rest] = query.filters;
  const c = only as Condition | undefined;
  return !rest.length &&
    c?.kind === 'condition' &&
    c.column === 'id' &&
    c.op === 'eq' &&
    !c.negated &&
    typeof c.value === 'string'
    ? c.value
    : undefined;
}

function tableFor(ctx: RestContext, call: RestCall, action: Action) {
  const permission = ctx.authorize(call.table, action, call.caller);
  const table = ctx.schema.get(call.table) as TableSchema; // every table with a policy is migrated
  return { table, permission, policyWhere: permission.where ? [permission.where] : [] };
}

async function run(ctx: RestContext | pg.PoolClient, statement: Sql): Promise<Row[]> {
  const db = 'pool' in ctx ? ctx.pool : ctx;
  return (await db.query<Row>(toQuery(statement))).rows;
}

/** GET: the rows the caller may see, and the total when asked (Prefer: count=exact). */
export async function selectRows(ctx: RestContext, call: RestCall & { withCount: boolean }) {
  const { query } = call;
  const { table, policyWhere } = tableFor(ctx, call, singleId(query) !== undefined ? 'get' : 'list');
  const returning = compileReturning(table, query.select);
  const cursor = query.cursor === undefined ? undefined : compileCursor(table, query.order, query.cursor, policyWhere);
  const where = compileWhere(table, query.filters, cursor ? [...policyWhere, cursor.where] : policyWhere);
  const limit = Math.min(query.limit ?? ctx.maxRows, ctx.maxRows);
  const offset = query.offset ?? 0;
  const statement = sql`SELECT ${returning} FROM ${ident(table.name)}${where}${compileOrder(table, cursor?.order ?? query.order)} LIMIT ${limit} OFFSET ${offset}`;
  const [rows, total] = await Promise.all([
    run(ctx, statement),
    // The total counts every matching row, wherever the page or cursor stands.
    call.withCount
      ? run(
          ctx,
          sql`SELECT count(*)::int AS n FROM ${ident(table.name)}${compileWhere(table, query.filters, policyWhere)}`,
        ).then((r) => r[0]!.n as number)
      : undefined,
  ]);
  return { rows, total, offset };
}

/** POST: insert one row or many, or upsert through on_conflict, in one transaction. */
export async function insertRows(ctx: RestContext, call: RestCall & { body: unknown }) {
  const { table, permission } = tableFor(ctx, call, 'create');
  const rows = prepareInsertRows(table, call.body);
  rows.forEach((row) => permission.check?.(plainRow(row)));
  let updateWhere: Sql | undefined;
  if (call.query.onConflict) {
    // The update half of an upsert is an update: it obeys the update policy too.
    const update = ctx.authorize(call.table, 'update', call.caller);
    rows.forEach((row) => update.check?.(plainRow(row)));
    updateWhere = update.where;
  }
  const statements = compileInserts({
    table,
    rows,
    returning: compileReturning(table, call.query.select),
    onConflict: call.query.onConflict,
    updateWhere,
  });
  return transaction(ctx.pool, async (client) => {
    const inserted = (await Promise.all(statements.map((s) => run(client, s)))).flat();
    await ctx.afterInsert?.(client, {
      table: call.table,
      ids: rows.map((row) => row.get('id')).filter((id): id is string => typeof id === 'string'),
    });
    return inserted;
  });
}

/** PATCH: update the filtered rows the caller may change. */
export async function updateRows(ctx: RestContext, call: RestCall & { body: unknown }) {
  const { table, permission, policyWhere } = tableFor(ctx, call, 'update');
  requireFilter(call.query);
  const patch = prepareUpdate(table, call.body);
  permission.check?.(plainRow(patch));
  const rows = await run(
    ctx,
    compileUpdate(
      table,
      patch,
      compileWhere(table, call.query.filters, policyWhere),
      compileReturning(table, call.query.select),
    ),
  );
  const id = singleId(call.query);
  if (id !== undefined && rows.length === 0) throw new ApiError('NOT_FOUND', `Record with id ${id} not found.`);
  return rows;
}

/** DELETE: delete the filtered rows the caller may delete. */
export async function deleteRows(ctx: RestContext, call: RestCall) {
  const { table, policyWhere } = tableFor(ctx, call, 'delete');
  requireFilter(call.query);
  // Deleting a missing row, or one the caller may not see, answers 200 with no rows: the
  // platform client takes any 2xx (PLATFORM_API.md 3.4), and the two cases look alike.
  return run(
    ctx,
    compileDelete(
      table,
      compileWhere(table, call.query.filters, policyWhere),
      compileReturning(table, call.query.select),
    ),
  );
}

/** An unfiltered PATCH or DELETE (the client's deleteMany({ where: {} })) is refused, not run on every row. */
function requireFilter(query: RestQuery) {
  if (query.filters.length === 0) throw new ApiError('FILTER_REQUIRED', 'Updates and deletes need at least one filter');
}
