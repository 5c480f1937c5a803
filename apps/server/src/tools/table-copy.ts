import type pg from 'pg';

export interface TableInfo {
  name: string;
  /** The columns a row is written with: every column but generated ones. */
  columns: string[];
}

type Queryable = pg.Pool | pg.ClientBase;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The application's tables (schema public, without schema_migrations), parents before the
 * tables whose foreign keys refer to them, so rows can be written in this order.
 */
export async function listTables(db: Queryable): Promise<TableInfo[]> {
  const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND is_generated = 'NEVER' AND table_name <> 'schema_migrations'
       AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')
     ORDER BY table_name, ordinal_position`,
  );
  const { rows: references } = await db.query<{ child: string; parent: string }>(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent FROM pg_constraint c
     WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace AND c.conrelid <> c.confrelid`,
  );
  const tables = new Map<string, string[]>();
  for (const { table_name, column_name } of columns)
    tables.set(table_name, [...(tables.get(table_name) ?? []), column_name]);
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const { parent } of references.filter((r) => r.child === name)) visit(parent.replace(/^"|"$/g, ''), path);
    ordered.push(name);
  };
  for (const name of [...tables.keys()].sort()) visit(name, new Set());
  return ordered.filter((name) => tables.has(name)).map((name) => ({ name, columns: tables.get(name)! }));
}

/** The migration files a database has applied, in order. */
export async function appliedMigrations(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version');
  return rows.map((r) => r.name);
}

/**
 * Reads a table's rows as JSON text, a batch at a time, through a cursor of the caller's
 * transaction (open one with REPEATABLE READ for a snapshot of every table at one instant).
 */
export async function* readRows(client: pg.ClientBase, table: string, batchSize = 500): AsyncGenerator<string[]> {
  const cursor = quote(`copy_${table}`);
  await client.query(
    `DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS row FROM ${quote(table)} t`,
  );
  try {
    for (;;) {
      const { rows } = await client.query<{ row: string }>(`FETCH ${batchSize} FROM ${cursor}`);
      if (rows.length === 0) return;
      yield rows.map((r) => r.row);
    }
  } finally {
    await client.query(`CLOSE ${cursor}`);
  }
}

/** Writes rows (JSON text, as readRows gives them) into a table, keeping their ids. */
export async function insertRows(client: pg.ClientBase, table: TableInfo, rows: string[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = table.columns.map(quote).join(', ');
  await client.query(
    `INSERT INTO ${quote(table.name)} (${columns}) OVERRIDING SYSTEM VALUE
     SELECT ${columns} FROM json_populate_recordset(NULL::${quote(table.name)}, $1::json)`,
    [`[${rows.join(',')}]`],
  );
}

/** Tables of the target that already hold rows: copying refuses to merge into them. */
export async function nonEmptyTables(db: Queryable, tables: TableInfo[]): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of tables) {
    const { rowCount } = await db.query(`SELECT 1 FROM ${quote(name)} LIMIT 1`);
    if (rowCount) found.push(name);
  }
  return found;
}

/**
 * Runs `load` in one transaction with the tables' triggers off, so copied rows do not collect
 * files a second time; then moves every sequence past the copied ids.
 * Off as superuser (session_replication_role), else per table as its owner (DISABLE TRIGGER USER).
 */
export async function loadInTransaction(
  client: pg.ClientBase,
  tables: TableInfo[],
  load: () => Promise<void>,
): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SAVEPOINT replica');
    const asReplica = await client.query('SET LOCAL session_replication_role = replica').then(
      () => true,
      () => false,
    );
    await client.query(asReplica ? 'RELEASE SAVEPOINT replica' : 'ROLLBACK TO SAVEPOINT replica');
    if (!asReplica)
      for (const { name } of tables) await client.query(`ALTER TABLE ${quote(name)} DISABLE TRIGGER USER`);
    await load();
    if (!asReplica) for (const { name } of tables) await client.query(`ALTER TABLE ${quote(name)} ENABLE TRIGGER USER`);
    const { rows: sequences } = await client.query<{ table_name: string; column_name: string; sequence: string }>(
      `SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
       FROM information_schema.columns WHERE table_schema = 'public' AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`,
    );
    for (const s of sequences) {
      await client.query(
        `SELECT setval($1, coalesce((SELECT max(${quote(s.column_name)}) FROM ${quote(s.table_name)}), 0) + 1, false)`,
        [s.sequence],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Copies rows into the target's tables (each must be empty), in dependency order, in one
 * transaction: all of them or none. `rowsOf` gives a table's rows as JSON text in batches.
 * `beforeCommit` runs last in that transaction (it sees the rows): what it throws undoes
 * them all, so a copy that fails there can simply be run again. Returns the rows written per table.
 */
export async function loadTables(
  target: pg.Pool,
  rowsOf: (table: string) => AsyncIterable<string[]>,
  beforeCommit?: (client: pg.ClientBase, counts: Record<string, number>) => Promise<void>,
): Promise<Record<string, number>> {
  const tables = await listTables(target);
  const occupied = await nonEmptyTables(target, tables);
  if (occupied.length)
    throw new Error(
      `The target database already has rows in ${occupied.join(', ')}: copy only into a new, empty install`,
    );
  const counts: Record<string, number> = {};
  const client = await target.connect();
  try {
    await loadInTransaction(client, tables, async () => {
      for (const table of tables) {
        let count = 0;
        for await (const rows of rowsOf(table.name)) {
          await insertRows(client, table, rows);
          count += rows.length;
        }
        counts[table.name] = count;
      }
      await beforeCommit?.(client, counts);
    });
  } finally {
    client.release();
  }
  return counts;
}
