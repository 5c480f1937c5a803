import { randomBytes } from 'node:crypto';
import { ApiError } from '../../errors.js';
import { type Column, type TableSchema, isJson, isNumeric, isText } from '../schema.js';
import { type Sql, empty, ident, join, raw, sql } from '../sql.js';
import type { Condition, Filter, OrderTerm, RestQuery } from './parse-query.js';

/**
 * Compiles a parsed REST request into SQL for one table. Every identifier is checked
 * against the table's columns; every value is a bound parameter, left for PostgreSQL
 * to type from the column it is compared with or stored in.
 */

const DEFAULT = Symbol('DEFAULT');
type Row = Record<string, unknown>;

function column(table: TableSchema, name: string, param: string): Column {
  const found = table.columns.get(name);
  if (!found) throw new ApiError('UNKNOWN_COLUMN', `Unknown column '${name}' in ${param} of table '${table.name}'`);
  return found;
}

const everyColumn = new WeakMap<TableSchema, Sql>();

export function compileReturning(table: TableSchema, select: RestQuery['select']): Sql {
  const named = select.filter((name) => name !== '*').map((name) => column(table, name, 'select'));
  if (named.length === select.length)
    return join(
      named.map((col) => ident(col.name)),
      ', ',
    );
  let all = everyColumn.get(table);
  if (!all) everyColumn.set(table, (all = join([...table.columns.keys()].map(ident), ', ')));
  return all;
}

export function compileWhere(table: TableSchema, filters: Filter[], extra: Sql[] = []): Sql {
  const parts = [...filters.map((f) => compileFilter(table, f)), ...extra];
  return parts.length ? sql` WHERE ${join(parts, ' AND ')}` : empty;
}

function compileFilter(table: TableSchema, filter: Filter): Sql {
  if (filter.kind === 'condition') return compileCondition(table, filter);
  if (filter.items.length === 0) return raw(filter.kind === 'and' ? 'TRUE' : 'FALSE');
  const parts = filter.items.map((item) => compileFilter(table, item));
  return sql`(${join(parts, filter.kind === 'and' ? ' AND ' : ' OR ')})`;
}

function compileCondition(table: TableSchema, condition: Condition): Sql {
  const col = column(table, condition.column, 'filter');
  const name = ident(col.name);
  const { op, value } = condition;
  if (condition.rawNot) {
    return value === 'null'
      ? sql`${name} IS NOT NULL`
      : sql`${name} IS DISTINCT FROM ${filterValue(col, value as string)}`;
  }
  const positive = ((): Sql => {
    if (op === 'in') {
      const list = value as string[];
      return list.length === 0 ? raw('FALSE') : sql`${name} = ANY(${list.map((v) => filterValue(col, v))})`;
    }
    const text = value as string;
    if (op === 'is') return compileIs(name, col, text.toLowerCase());
    if (op === 'eq' && text === 'null') return sql`${name} IS NULL`;
    if (op === 'neq' && text === 'null') return sql`${name} IS NOT NULL`;
    if (op === 'like' || op === 'ilike') {
      const target = isText(col) ? name : sql`${name}::text`;
      return sql`${target} ${raw(op === 'like' ? 'LIKE' : 'ILIKE')} ${text}`;
    }
    const symbol = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
    return sql`${name} ${raw(symbol)} ${filterValue(col, text)}`;
  })();
  return condition.negated ? sql`NOT (${positive})` : positive;
}

function compileIs(name: Sql, col: Column, value: string): Sql {
  if (value === 'null') return sql`${name} IS NULL`;
  const truthy = value === 'true' || value === '1';
  // The platform encodes booleans as 1/0; our flag columns are integers (SPEC.md section 3).
  if (col.type === 'bool') return sql`${name} ${raw(truthy ? 'IS TRUE' : 'IS FALSE')}`;
  return sql`${name} = ${truthy ? '1' : '0'}`;
}

/** Filter values arrive as text; booleans sent to a numeric column mean 1 and 0. */
function filterValue(col: Column, value: string): string {
  if (isNumeric(col) && (value === 'true' || value === 'false')) return value === 'true' ? '1' : '0';
  return value;
}

export function compileOrder(table: TableSchema, order: OrderTerm[]): Sql {
  if (order.length === 0) return empty;
  const terms = order.map((term) => {
    const name = ident(column(table, term.column, 'order').name);
    const nulls = term.nulls ? raw(term.nulls === 'first' ? ' NULLS FIRST' : ' NULLS LAST') : empty;
    return sql`${name}${raw(term.descending ? ' DESC' : ' ASC')}${nulls}`;
  });
  return sql` ORDER BY ${join(terms, ', ')}`;
}

/**
 * Keyset pagination: rows after the row whose id is the cursor, under the requested order
 * with id as the final tie-breaker. (NULLs in sort columns are not paged through.)
 */
export function compileCursor(
  table: TableSchema,
  order: OrderTerm[],
  cursor: string,
  policyWhere: Sql[] = [],
): { where: Sql; order: OrderTerm[] } {
  if (!table.columns.has('id'))
    throw new ApiError('INVALID_PARAMETER', `cursor needs an id column on table '${table.name}'`);
  const terms = order.some((t) => t.column === 'id') ? order : [...order, { column: 'id', descending: false }];
  // The cursor row is read under the caller's policy too: a row they may not see tells nothing.
  const visible = policyWhere.length ? sql` AND ${join(policyWhere, ' AND ')}` : empty;
  const at = (term: OrderTerm) =>
    sql`(SELECT ${ident(term.column)} FROM ${ident(table.name)} WHERE "id" = ${cursor}${visible})`;
  const branches = terms.map((term, i) => {
    const equal = terms
      .slice(0, i)
      .map((prior) => sql`${ident(column(table, prior.column, 'order').name)} = ${at(prior)}`);
    const after = sql`${ident(column(table, term.column, 'order').name)} ${raw(term.descending ? '<' : '>')} ${at(term)}`;
    return sql`(${join([...equal, after], ' AND ')})`;
  });
  return { where: sql`(${join(branches, ' OR ')})`, order: terms };
}

/** Turns a JSON body value into what is stored in the column, or DEFAULT. */
function storedValue(table: TableSchema, col: Column, value: unknown): unknown {
  const isObject = typeof value === 'object' && value !== null;
  // The platform client turns Date values into {} (PLATFORM_API.md 14.11): timestamps become "now".
  if (
    isObject &&
    (col.name === 'created_at' || col.name === 'updated_at') &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  ) {
    return DEFAULT;
  }
  if (isJson(col)) return value === null ? null : JSON.stringify(value);
  if (isObject)
    throw new ApiError(
      'INVALID_VALUE',
      `Column '${col.name}' of table '${table.name}' does not take an object or array`,
    );
  if (typeof value === 'boolean' && isNumeric(col)) return value ? 1 : 0;
  return value;
}

function bodyRow(table: TableSchema, input: unknown, where: string): Map<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ApiError('INVALID_BODY', `${where} must be a JSON object`);
  }
  const row = new Map<string, unknown>();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    row.set(key, storedValue(table, column(table, key, 'body'), value));
  }
  return row;
}

const valueSql = (value: unknown): Sql => (value === DEFAULT ? raw('DEFAULT') : sql`${value}`);

/** Rows for an INSERT: every row gets a 32-hex id when it has none (PLATFORM_API.md 3.4). */
export function prepareInsertRows(table: TableSchema, body: unknown): Map<string, unknown>[] {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0)
    throw new ApiError('INVALID_BODY', 'Body must be a JSON object or a non-empty array of objects');
  return items.map((item, i) => {
    const row = bodyRow(table, item, Array.isArray(body) ? `Row ${i}` : 'Body');
    if (table.columns.has('id') && !row.get('id')) row.set('id', randomBytes(16).toString('hex'));
    return row;
  });
}

/** One INSERT per distinct set of columns, so an upsert only updates what each row sent. */
export function compileInserts(opts: {
  table: TableSchema;
  rows: Map<string, unknown>[];
  returning: Sql;
  onConflict?: string[];
  updateWhere?: Sql;
}): Sql[] {
  const { table, rows, returning, onConflict } = opts;
  const groups = new Map<string, Map<string, unknown>[]>();
  for (const row of rows) {
    const key = [...row.keys()].sort().join(',');
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const target = onConflict?.map((name) => ident(column(table, name, 'on_conflict').name));
  return [...groups.values()].map((group) => {
    const names = [...group[0]!.keys()].sort();
    const values = group.map(
      (row) =>
        sql`(${join(
          names.map((n) => valueSql(row.get(n))),
          ', ',
        )})`,
    );
    let statement = sql`INSERT INTO ${ident(table.name)} (${join(names.map(ident), ', ')}) VALUES ${join(values, ', ')}`;
    if (target) {
      // An upsert never rewrites the row's id (the client sends a fresh one every time) or
      // created_at; with nothing else to set it still touches the row so it is returned.
      const updatable = names.filter((n) => !onConflict!.includes(n) && n !== 'id' && n !== 'created_at');
      const sets = (updatable.length ? updatable : [onConflict![0]!]).map(
        (n) => sql`${ident(n)} = EXCLUDED.${ident(n)}`,
      );
      // The update policy's predicate names columns unqualified, which would be ambiguous
      // next to EXCLUDED here: it is applied through the primary key instead.
      const guard = opts.updateWhere
        ? sql` WHERE ${ident(table.name)}."id" IN (SELECT "id" FROM ${ident(table.name)} WHERE ${opts.updateWhere})`
        : empty;
      statement = sql`${statement} ON CONFLICT (${join(target, ', ')}) DO UPDATE SET ${join(sets, ', ')}${guard}`;
    }
    return sql`${statement} RETURNING ${returning}`;
  });
}

export function prepareUpdate(table: TableSchema, body: unknown): Map<string, unknown> {
  const patch = bodyRow(table, body, 'Body');
  if (patch.size === 0) throw new ApiError('INVALID_BODY', 'Body must set at least one column');
  if (table.columns.has('updated_at') && !patch.has('updated_at')) patch.set('updated_at', DEFAULT);
  return patch;
}

export function compileUpdate(table: TableSchema, patch: Map<string, unknown>, where: Sql, returning: Sql): Sql {
  const sets = [...patch].map(([name, value]) => sql`${ident(name)} = ${valueSql(value)}`);
  return sql`UPDATE ${ident(table.name)} SET ${join(sets, ', ')}${where} RETURNING ${returning}`;
}

export function compileDelete(table: TableSchema, where: Sql, returning: Sql): Sql {
  return sql`DELETE FROM ${ident(table.name)}${where} RETURNING ${returning}`;
}

/** The row a policy check sees: the stored values by column name (DEFAULT as undefined). */
export function plainRow(row: Map<string, unknown>): Row {
  return Object.fromEntries([...row].map(([k, v]) => [k, v === DEFAULT ? undefined : v]));
}
