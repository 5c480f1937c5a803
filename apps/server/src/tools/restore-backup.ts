import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type pg from 'pg';
import { migrate } from '../db/migrate.js';
import type { Storage } from '../storage/storage.js';
import { BACKUP_FORMAT, type BackupManifest } from './create-backup.js';
import { copyStorageFiles } from './storage-files.js';
import { appliedMigrations, loadTables } from './table-copy.js';

/**
 * Brings a new install's database up to the schema version of `migrations` (another install's),
 * refusing when that install has a migration this build does not know (restore with its build or newer).
 */
export async function migrateLike(target: pg.Pool, migrations: string[]): Promise<void> {
  const last = Math.max(0, ...migrations.map((name) => Number(name.slice(0, 3))));
  await migrate(target, { until: last });
  const applied = await appliedMigrations(target);
  if (applied.join() !== migrations.join()) {
    throw new Error(
      `The schema versions differ: the source has ${migrations.join(', ') || 'none'}, this build made ${applied.join(', ') || 'none'}`,
    );
  }
}

/**
 * Restores a backup folder (createBackup) into a new install: the rows into `target` (migrated
 * to the backup's schema version first, then loaded with their ids) and the files into
 * `storage` under their keys. The secrets are the caller's to place. Refuses a target with rows.
 */
export async function restoreBackup({ from, target, storage }: { from: string; target: pg.Pool; storage: Storage }) {
  const manifest = JSON.parse(await readFile(join(from, 'manifest.json'), 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT)
    throw new Error(`Unknown backup format ${manifest.format} (this build reads format ${BACKUP_FORMAT})`);
  await migrateLike(target, manifest.migrations);
  let files = 0;
  // Checked and copied before the rows are committed: a restore that fails keeps no rows.
  const tables = await loadTables(
    target,
    (table) => readDump(join(from, 'database', `${table}.ndjson`)),
    async (client, counts) => {
      for (const [table, count] of Object.entries(manifest.tables)) {
        if (counts[table] !== count)
          throw new Error(`Table ${table}: the backup has ${count} rows, ${counts[table] ?? 0} were restored`);
      }
      files = await copyStorageFiles({ root: join(from, 'storage'), storage, db: client });
    },
  );
  return { tables, files };
}

async function* readDump(file: string, batchSize = 500): AsyncGenerator<string[]> {
  if (!existsSync(file)) return;
  let batch: string[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line) continue;
    batch.push(line);
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
