// npm run migrate-data: an embedded install moved onto PostgreSQL and S3 (issue 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Peer } from '../storage/test-support/s3-peer.js';
import { createStorage } from '../storage/storage.js';
import { createTestDatabase } from '../test-support/test-database.js';
import { buildTestApp } from '../test-support/test-server.js';
import { copyInstall } from './copy-install.js';
import { expectInstallWorks, makeInstall, PUBLIC_URL, rowCounts, tempDir } from './test-support/installs.js';

let s3: Awaited<ReturnType<typeof startS3Peer>>;
beforeAll(async () => {
  s3 = await startS3Peer();
});
afterAll(() => s3?.close());

describe('copying an install onto PostgreSQL and S3', () => {
  it('copies every row and puts the files in the bucket under the keys their public URLs name', async () => {
    const install = await makeInstall();
    const target = await createTestDatabase({ empty: true });
    const { tables, files } = await copyInstall({
      sourceUrl: install.url,
      dataDir: install.dataDir,
      target: target.pool,
      storage: createStorage({ dataDir: install.dataDir, s3: s3.options }),
    });
    expect(files).toBe(1);
    const counts = await rowCounts(install.pool);
    expect(tables).toEqual(counts);
    expect(await rowCounts(target.pool)).toEqual(counts);

    const o = s3.options;
    const { app } = await buildTestApp(
      {
        DATA_DIR: await tempDir('moved'),
        PUBLIC_URL,
        S3_ENDPOINT: o.endpoint!,
        S3_BUCKET: o.bucket,
        S3_ACCESS_KEY_ID: o.accessKeyId!,
        S3_SECRET_ACCESS_KEY: o.secretAccessKey!,
        S3_FORCE_PATH_STYLE: 'true',
      },
      { pool: target.pool },
    );
    try {
      await expectInstallWorks(app, install);
      // New rows get new ids: the sequences were moved past the copied ones.
      await target.pool.query(
        `INSERT INTO manuals (id, title, file_url, file_name) VALUES ('manual_new', 'New', 'https://x.test/files/n', 'n.pdf')`,
      );
      await target.pool.query(`INSERT INTO ingestion_jobs (manual_id) VALUES ('manual_new')`);
      expect((await target.pool.query(`SELECT count(DISTINCT id)::int AS n FROM ingestion_jobs`)).rows[0].n).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('refuses a target database that already has rows', async () => {
    const install = await makeInstall();
    await expect(
      copyInstall({ sourceUrl: install.url, dataDir: install.dataDir, target: install.pool }),
    ).rejects.toThrow(/already has rows/);
  });
});
