// npm run restore -- <backup folder>: restores a backup (npm run backup) into a new, empty
// install: DATA_DIR without a database or files (or an empty DATABASE_URL database and bucket).
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
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
  if (!existsSync(join(backup, 'manifest.json'))) throw new Error(`${backup} is not a complete backup (no manifest.json)`);
  if (!config.databaseUrl && existsSync(join(config.dataDir, 'pg'))) throw new Error(`${config.dataDir} already has a database: restore into an empty DATA_DIR`);
  if (!config.s3 && (await listStorageKeys(join(config.dataDir, 'storage'))).length) throw new Error(`${config.dataDir}/storage already has files: restore into an empty DATA_DIR`);

  await mkdir(config.dataDir, { recursive: true });
  for (const file of SECRET_FILES) {
    const saved = join(backup, 'secrets', file);
    if (existsSync(saved) && !existsSync(join(config.dataDir, file))) await copyFile(saved, join(config.dataDir, file));
  }
  const database = await openInstallDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log: say });
  const pool = createPool(database.url, 2);
  try {
    const { tables, files } = await restoreBackup({ from: backup, target: pool, storage: createStorage({ dataDir: config.dataDir, s3: config.s3 }) });
    const rows = Object.values(tables).reduce((sum, count) => sum + count, 0);
    say(`restored ${rows} rows in ${Object.keys(tables).length} tables and ${files} files into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}`);
  } finally {
    await pool.end();
    await database.close();
  }
});
