// npm run restore -- <backup folder>: restores a backup (npm run backup) into a new, empty
// install: DATA_DIR without a database or files (or an empty DATABASE_URL database and bucket).
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { createPool } from '../db/pool.js';
import { createStorage } from '../storage/storage.js';
import { say, runTool } from './cli.js';
import { SECRET_FILES } from './create-backup.js';
import { openInstallDatabase } from './install-database.js';
import { restoreBackup } from './restore-backup.js';
import { listStorageKeys } from './storage-files.js';

runTool(async (config, [from]) => {
  if (!from) throw new Error('Name the backup folder: npm run restore -- backups/fieldassist-backup-...');
  const backup = resolve(from);
  if (!existsSync(join(backup, 'manifest.json')))
    throw new Error(`${backup} is not a complete backup (no manifest.json)`);
  if (!config.databaseUrl && existsSync(join(config.dataDir, 'pg')))
    throw new Error(`${config.dataDir} already has a database: restore into an empty DATA_DIR`);
  if (!config.s3 && (await listStorageKeys(join(config.dataDir, 'storage'))).length)
    throw new Error(`${config.dataDir}/storage already has files: restore into an empty DATA_DIR`);

  const dataDirExisted = existsSync(config.dataDir);
  const placedSecrets: string[] = [];
  try {
    await mkdir(config.dataDir, { recursive: true });
    for (const file of SECRET_FILES) {
      const saved = join(backup, 'secrets', file);
      if (existsSync(saved) && !existsSync(join(config.dataDir, file))) {
        await copyFile(saved, join(config.dataDir, file));
        placedSecrets.push(file);
      }
    }
    await restoreInto(config, backup);
  } catch (error) {
    // A failed restore would leave a database (or secrets) that makes the next attempt refuse
    // this DATA_DIR: remove what this run wrote, so it can simply be run again.
    await removeRestored(config, { dataDirExisted, placedSecrets }).catch((cleanup: Error) =>
      say(`could not remove what the restore wrote: ${cleanup.message}`),
    );
    throw error;
  }
});

async function restoreInto(config: Config, backup: string) {
  const database = await openInstallDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    log: say,
    create: true,
  });
  const pool = createPool(database.url, 2);
  try {
    const { tables, files } = await restoreBackup({
      from: backup,
      target: pool,
      storage: createStorage({ dataDir: config.dataDir, s3: config.s3 }),
    });
    const rows = Object.values(tables).reduce((sum, count) => sum + count, 0);
    say(
      `restored ${rows} rows in ${Object.keys(tables).length} tables and ${files} files into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`,
    );
  } finally {
    await pool.end();
    await database.close();
  }
}

/** Undoes a failed restore in DATA_DIR (the database's rows were rolled back with their transaction). */
async function removeRestored(
  config: Config,
  { dataDirExisted, placedSecrets }: { dataDirExisted: boolean; placedSecrets: string[] },
) {
  if (!dataDirExisted) return rm(config.dataDir, { recursive: true, force: true });
  // Each of these was absent or empty before this run: the checks above refused otherwise.
  const written = [
    ...placedSecrets,
    ...(config.databaseUrl ? [] : ['pg', 'pg.init', 'pg-password']),
    ...(config.s3 ? [] : ['storage']),
  ];
  for (const name of written) await rm(join(config.dataDir, name), { recursive: true, force: true });
}
