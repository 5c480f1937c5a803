import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

// Resolves the same from src/db (tests) and dist/db (production).
const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));
const MIGRATION_LOCK = 7_424_001;

/**
 * Applies the numbered SQL migrations not yet applied, each in its own transaction.
 * An advisory lock makes concurrent starts of several instances safe. `until` stops after that
 * version (a restore loads rows into the schema they were dumped from; the next start does the rest).
 */
export async function migrate(pool: pg.Pool, { until = Infinity }: { until?: number } = {}): Promise<string[]> {
  const files = (await migrationFiles()).filter((file) => Number(file.slice(0, 3)) <= until);
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const file of files) {
      const version = Number(file.slice(0, 3));
      if (done.has(version)) continue;
      const text = await readFile(migrationsDir + file, 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(text);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, file]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(file);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return applied;
}

async function migrationFiles(): Promise<string[]> {
  return (await readdir(migrationsDir)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
}

/** The migrations this build has that the database has not applied yet (all of them on an empty database). */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool
    .query<{ version: number }>('SELECT version FROM schema_migrations')
    .catch((error: { code?: string }) => {
      if (error.code === '42P01') return { rows: [] }; // undefined_table: nothing applied yet
      throw error;
    });
  const done = new Set(rows.map((r) => r.version));
  return (await migrationFiles()).filter((file) => !done.has(Number(file.slice(0, 3))));
}
