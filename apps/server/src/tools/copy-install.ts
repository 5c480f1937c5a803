import { join } from 'node:path';
import pg from 'pg';
import type { Storage } from '../storage/storage.js';
import { migrateLike } from './restore-backup.js';
import { copyStorageFiles } from './storage-files.js';
import { appliedMigrations, loadTables, readRows } from './table-copy.js';

/**
 * Moves an install onto other infrastructure: every row of `sourceUrl` (one snapshot) into the
 * empty database `target` (migrated to the source's schema version first), and every file of
 * DATA_DIR/storage into `storage` (when given) under the same key, so stored public URLs stay valid.
 * Returns the rows copied per table and the number of files.
 */
export async function copyInstall({
  sourceUrl,
  dataDir,
  target,
  storage,
}: {
  sourceUrl: string;
  dataDir: string;
  target: pg.Pool;
  storage?: Storage;
}) {
  const source = new pg.Client({ connectionString: sourceUrl });
  await source.connect();
  try {
    await source.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await migrateLike(target, await appliedMigrations(source));
    let files = 0;
    const tables = await loadTables(
      target,
      (table) => readRows(source, table),
      async (client) => {
        // Before the rows are committed: if the bucket refuses a file, the target keeps no rows
        // (which would make the next attempt refuse it) and the copy can simply be run again.
        if (storage) files = await copyStorageFiles({ root: join(dataDir, 'storage'), storage, db: client });
      },
    );
    await source.query('COMMIT');
    return { tables, files };
  } finally {
    await source.end();
  }
}
