import { chmod, cp, mkdir, rename, writeFile } from 'node:fs/promises';
import { createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { appliedMigrations, listTables, readRows } from './table-copy.js';
import { listStorageKeys } from './storage-files.js';

export const BACKUP_FORMAT = 1;
/** The files of DATA_DIR that make an install what it is besides its rows and files. */
export const SECRET_FILES = ['service-key', 'auth-secret'];

export interface BackupManifest {
  format: number;
  createdAt: string;
  migrations: string[];
  /** Rows per table, as dumped. */
  tables: Record<string, number>;
  files: number;
  /** Files storage_objects names that were gone from the folder when it was copied. */
  missingFiles: string[];
}

/**
 * Writes a backup of an install into a new folder under `outDir`: every table's rows (one JSON
 * row per line, read in one REPEATABLE READ snapshot), the storage folder copied while that
 * snapshot is held, and the service key and auth secret. The folder is named with the time and
 * only gets its final name once complete. Returns its path and manifest.
 */
export async function createBackup({
  databaseUrl,
  dataDir,
  outDir,
}: {
  databaseUrl: string;
  dataDir: string;
  outDir: string;
}) {
  const name = `fieldassist-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const partial = join(outDir, `${name}.partial`);
  await mkdir(join(partial, 'database'), { recursive: true });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      migrations: await appliedMigrations(client),
      tables: {},
      files: 0,
      missingFiles: [],
    };
    for (const table of await listTables(client)) {
      const out = createWriteStream(join(partial, 'database', `${table.name}.ndjson`));
      let count = 0;
      for await (const rows of readRows(client, table.name)) {
        count += rows.length;
        if (!out.write(`${rows.join('\n')}\n`)) await once(out, 'drain');
      }
      out.end();
      await finished(out);
      manifest.tables[table.name] = count;
    }
    // Files are copied while the snapshot is held: a file deleted meanwhile is only collected
    // later by the ingestion worker, and one uploaded meanwhile is merely an extra file.
    const storageRoot = join(dataDir, 'storage');
    if (existsSync(storageRoot))
      await cp(storageRoot, join(partial, 'storage'), {
        recursive: true,
        filter: (source) => !source.startsWith(join(storageRoot, '.tmp')),
      });
    const copied = new Set(await listStorageKeys(join(partial, 'storage')));
    const { rows } = await client.query<{ key: string }>('SELECT key FROM storage_objects ORDER BY key');
    manifest.files = copied.size;
    manifest.missingFiles = rows.map((r) => r.key).filter((key) => !copied.has(key));
    await client.query('COMMIT');

    await mkdir(join(partial, 'secrets'), { mode: 0o700 });
    for (const file of SECRET_FILES) {
      if (existsSync(join(dataDir, file))) {
        await cp(join(dataDir, file), join(partial, 'secrets', file));
        await chmod(join(partial, 'secrets', file), 0o600);
      }
    }
    await writeFile(join(partial, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const path = join(outDir, name);
    await rename(partial, path);
    return { path, manifest };
  } finally {
    await client.end();
  }
}
