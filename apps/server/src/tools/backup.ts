// npm run backup [-- <folder>]: a backup of this install (DATA_DIR) into a new timestamped folder
// under <folder> (default ./backups). The server may be running: the rows come from one snapshot.
import { resolve } from 'node:path';
import { createBackup } from './create-backup.js';
import { say, runTool } from './cli.js';
import { openInstallDatabase } from './install-database.js';

runTool(async (config, [outDir = 'backups']) => {
  const database = await openInstallDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log: say });
  try {
    const { path, manifest } = await createBackup({
      databaseUrl: database.url,
      dataDir: config.dataDir,
      outDir: resolve(outDir),
    });
    const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
    say(
      `backup written to ${path}: ${rows} rows in ${Object.keys(manifest.tables).length} tables, ${manifest.files} files`,
    );
    if (config.s3)
      say(
        `files are in the bucket ${config.s3.bucket}, not in this backup: keep them with bucket versioning or replication`,
      );
    if (manifest.missingFiles.length)
      say(
        `warning: ${manifest.missingFiles.length} stored files were deleted while the backup ran (listed in manifest.json)`,
      );
  } finally {
    await database.close();
  }
});
