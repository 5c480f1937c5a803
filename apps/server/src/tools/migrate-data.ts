// npm run migrate-data: moves the embedded install in DATA_DIR onto DATABASE_URL (an empty
// PostgreSQL) and, when S3_BUCKET is set, its files into the bucket under the same keys.
// Stop the FieldAssist server first: what it wrote after the copy would stay behind.
import { createPool } from '../db/pool.js';
import { createStorage } from '../storage/storage.js';
import { say, runTool } from './cli.js';
import { copyInstall } from './copy-install.js';
import { openInstallDatabase } from './install-database.js';

runTool(async (config) => {
  if (!config.databaseUrl) throw new Error('Set DATABASE_URL (and S3_* for the files) to the install to copy into');
  const source = await openInstallDatabase({ dataDir: config.dataDir, log: say });
  if (source.source === 'running')
    throw new Error('FieldAssist is running on this DATA_DIR: stop it first, so nothing is written after the copy');
  const target = createPool(config.databaseUrl, 2);
  try {
    // Without S3 the files stay where they are: DATA_DIR/storage is used by the new setup as well.
    const storage = config.s3 ? createStorage({ dataDir: config.dataDir, s3: config.s3 }) : undefined;
    const { tables, files } = await copyInstall({ sourceUrl: source.url, dataDir: config.dataDir, target, storage });
    const rows = Object.values(tables).reduce((sum, count) => sum + count, 0);
    say(
      `copied ${rows} rows in ${Object.keys(tables).length} tables${storage ? ` and ${files} files into the bucket ${config.s3!.bucket}` : ''}`,
    );
    for (const [table, count] of Object.entries(tables)) say(`  ${table}: ${count}`);
  } finally {
    await target.end();
    await source.close();
  }
});
