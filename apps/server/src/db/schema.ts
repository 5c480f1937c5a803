import type pg from 'pg';

export interface Column {
  name: string;
  /** PostgreSQL's udt_name: text, int4, int8, bool, jsonb, timestamptz, ... */
  type: string;
}

export interface TableSchema {
  name: string;
  columns: Map<string, Column>;
}

export type Schema = Map<string, TableSchema>;

/** Reads the columns of the given tables once at start-up; identifiers are checked against it. */
export async function loadSchema(pool: pg.Pool, tables: readonly string[]): Promise<Schema> {
  const { rows } = await pool.query<{ table_name: string; column_name: string; udt_name: string }>(
    `SELECT table_name, column_name, udt_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1) ORDER BY table_name, ordinal_position`,
    [tables],
  );
  const schema: Schema = new Map();
  for (const row of rows) {
    let table = schema.get(row.table_name);
    if (!table) schema.set(row.table_name, (table = { name: row.table_name, columns: new Map() }));
    table.columns.set(row.column_name, { name: row.column_name, type: row.udt_name });
  }
  return schema;
}

export const isNumeric = (c: Column) => ['int2', 'int4', 'int8', 'numeric', 'float4', 'float8'].includes(c.type);
export const isJson = (c: Column) => c.type === 'json' || c.type === 'jsonb';
export const isText = (c: Column) => ['text', 'varchar', 'bpchar', 'citext'].includes(c.type);
