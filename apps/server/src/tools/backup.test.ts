// npm run backup / restore: an install's rows and files, restored into a new one (issue 10).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStorage } from '../storage/storage.js';
import { createTestDatabase } from '../test-support/test-database.js';
import { buildTestApp } from '../test-support/test-server.js';
import { createBackup } from './create-backup.js';
import { restoreBackup } from './restore-backup.js';
import { expectInstallWorks, makeInstall, PUBLIC_URL, rowCounts, tempDir } from './test-support/installs.js';

describe('backup and restore', () => {
  it('restore a data dir with rows and files into a fresh one, where both are found', async () => {
    const install = await makeInstall();
    const { path, manifest } = await createBackup({
      databaseUrl: install.url,
      dataDir: install.dataDir,
      outDir: await tempDir('backups'),
    });
    expect(path).toMatch(/fieldassist-backup-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(manifest).toMatchObject({ format: 1, files: 1, missingFiles: [] });
    expect(manifest.tables).toMatchObject({ manuals: 1, chat_messages: 1, storage_objects: 1, ingestion_jobs: 1 });
    expect(existsSync(join(path, 'storage', new URL(install.publicUrl).pathname.replace('/files/', '')))).toBe(true);
    expect(await readFile(join(path, 'database', 'chat_messages.ndjson'), 'utf8')).toContain(
      'Check the impeller.\\nThen the seal.',
    );

    const target = await createTestDatabase({ empty: true });
    const dataDir = await tempDir('restored');
    const restored = await restoreBackup({ from: path, target: target.pool, storage: createStorage({ dataDir }) });
    expect(restored.files).toBe(1);
    expect(await rowCounts(target.pool)).toEqual(await rowCounts(install.pool));
    // The queued job came back as it was, and only once.
    expect((await target.pool.query(`SELECT manual_id, status FROM ingestion_jobs`)).rows).toEqual([
      { manual_id: 'manual_pump', status: 'queued' },
    ]);
    expect((await target.pool.query(`SELECT response FROM chat_messages`)).rows[0].response).toBe(
      'Check the impeller.\nThen the seal.',
    );

    const { app } = await buildTestApp({ DATA_DIR: dataDir, PUBLIC_URL }, { pool: target.pool });
    try {
      await expectInstallWorks(app, install);
    } finally {
      await app.close();
    }
  });

  it('refuses to restore into a database that has rows', async () => {
    const install = await makeInstall();
    const { path } = await createBackup({
      databaseUrl: install.url,
      dataDir: install.dataDir,
      outDir: await tempDir('backups'),
    });
    await expect(
      restoreBackup({
        from: path,
        target: install.pool,
        storage: createStorage({ dataDir: await tempDir('restored') }),
      }),
    ).rejects.toThrow(/already has rows in .*manuals/);
  });
});
