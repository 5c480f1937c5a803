// Public types of the db module. `R` is a table's row type in camelCase, as the app sees it.

/** Row type of an untyped table. */
export type Row = Record<string, unknown>;

/** A Date is accepted wherever a text column is written or compared; it is sent as its ISO string. */
type DateIfText<V> = NonNullable<V> extends string ? Date : never;

/** A value a column can be compared with. */
export type FilterValue<V> = NonNullable<V> | DateIfText<V>;

/** Operator map for one column (PLATFORM_API.md §3.3). Several operators on one column are AND-ed. */
export interface Operators<V> {
  eq?: FilterValue<V> | null;
  neq?: FilterValue<V> | null;
  gt?: FilterValue<V>;
  gte?: FilterValue<V>;
  lt?: FilterValue<V>;
  lte?: FilterValue<V>;
  like?: string;
  ilike?: string;
  is?: boolean | null;
  not?: FilterValue<V>;
  in?: readonly FilterValue<V>[];
  not_in?: readonly FilterValue<V>[];
}

/** A plain value means `eq`, `null` means `is null`, an array means `in`; an object is an operator map. */
export type FieldCondition<V> = FilterValue<V> | null | readonly FilterValue<V>[] | Operators<V>;

/** Column conditions are AND-ed, together with the `AND` and `OR` groups beside them. */
export type Where<R> = { [K in keyof R]?: FieldCondition<R[K]> } & {
  AND?: readonly Where<R>[];
  OR?: readonly Where<R>[];
};

export type SortDirection = 'asc' | 'desc';

/** Object form (`{ createdAt: 'desc' }`) is snake-cased; a string is sent as written. */
export type OrderBy<R> = string | { [K in keyof R]?: SortDirection };

export interface ListOptions<R> {
  where?: Where<R>;
  select?: readonly (keyof R & string)[];
  orderBy?: OrderBy<R>;
  limit?: number;
  offset?: number;
  cursor?: string;
}

/** Values written to a table: any subset of the row, Dates allowed for text columns. */
export type RowInput<R> = { [K in keyof R]?: R[K] | DateIfText<R[K]> };

export interface WriteOptions {
  /** `false` drops `Prefer: return=representation`; the values sent are returned if the server sends no row. */
  returning?: boolean;
}

export interface UpsertOptions<R> extends WriteOptions {
  /** Conflict target column(s), camelCase or snake_case; default `id`. */
  onConflict?: (keyof R & string) | (string & {});
}

export interface TableClient<R = Row> {
  list(options?: ListOptions<R>): Promise<R[]>;
  /** The row with this id, or null. */
  get(id: string): Promise<R | null>;
  /** Inserts one row; an `id` (32 hex chars) is generated when the row has no truthy id. */
  create(data: RowInput<R>, options?: WriteOptions): Promise<R>;
  createMany(rows: readonly RowInput<R>[], options?: WriteOptions): Promise<R[]>;
  /** Inserts, or updates the given columns of the row that conflicts on `onConflict`. */
  upsert(data: RowInput<R>, options?: UpsertOptions<R>): Promise<R>;
  upsertMany(rows: readonly RowInput<R>[], options?: UpsertOptions<R>): Promise<R[]>;
  /** Updates one row; throws FieldAssistError NOT_FOUND ('Record with id {id} not found') when no row matches. */
  update(id: string, data: RowInput<R>, options?: WriteOptions): Promise<R>;
  /** One sequential `update` per item. */
  updateMany(rows: readonly (RowInput<R> & { id: string })[], options?: WriteOptions): Promise<R[]>;
  delete(id: string): Promise<void>;
  /** Deletes the rows matching `where`. An empty `where` sends no filter at all; the server decides. */
  deleteMany(options: { where: Where<R> }): Promise<void>;
  count(options?: { where?: Where<R> }): Promise<number>;
  exists(options: { where: Where<R> }): Promise<boolean>;
}

export interface SqlResult<T = Row> {
  rows: T[];
  columns: string[];
  rowCount: number;
  executionTime?: number;
}

export interface BatchStatement {
  sql: string;
  args?: readonly unknown[];
}

export interface BatchResult<T = Row> {
  results: { rows: T[]; columns: string[]; rowCount: number }[];
  executionTime?: number;
  success?: boolean;
}

export interface DbMethods<Tables> {
  /** The table client for `name` (same as `db[name]`; also typed for untyped clients). */
  table<K extends keyof Tables & string>(name: K): TableClient<Tables[K]>;
  /** Raw SQL with `?` placeholders. The server accepts it only with the service key. */
  sql<T = Row>(query: string, params?: readonly unknown[]): Promise<SqlResult<T>>;
  /** Several statements in one transaction (`mode` 'read' or 'write'). Service key only. */
  batch<T = Row>(statements: readonly BatchStatement[], mode?: 'read' | 'write'): Promise<BatchResult<T>>;
}

/**
 * `db.<table>` for every table of `Tables` (camelCase names), plus `table`, `sql` and
 * `batch`, which are therefore not usable as table property names (use `db.table('sql')`).
 */
export type DbClient<Tables> = { readonly [K in keyof Tables & string]: TableClient<Tables[K]> } & DbMethods<Tables>;
