import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll } from 'vitest';
import { buildTestApp } from '../../test-support/test-server.js';
import { createFileStore, type FileStore } from '../file-store.js';
import { createStorage } from '../storage.js';
import { startS3Peer } from './s3-peer.js';

export type Driver = 'disk' | 's3';
export const TEST_PUBLIC_URL = 'https://files.fieldassist.test';

/**
 * The real app, listening on loopback, with the storage routes on the chosen driver:
 * DATA_DIR/storage in a temp folder, or a bucket of a local S3 peer. The settings are
 * passed as the environment too, so an app that already registers storage uses the same.
 */
export async function startStorageApp(driver: Driver) {
  const base = await mkdtemp(join(tmpdir(), 'fieldassist-storage-'));
  const dataDir = join(base, 'data');
  await mkdir(dataDir);
  const s3 = driver === 's3' ? await startS3Peer() : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, PUBLIC_URL: TEST_PUBLIC_URL };
  if (s3) {
    const o = s3.options;
    Object.assign(env, {
      S3_ENDPOINT: o.endpoint,
      S3_BUCKET: o.bucket,
      S3_REGION: o.region,
      S3_ACCESS_KEY_ID: o.accessKeyId,
      S3_SECRET_ACCESS_KEY: o.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    });
  }
  const { app, pool, projectId, serviceKey } = await buildTestApp(env);
  const fileStore: FileStore = createFileStore({
    dataDir,
    publicUrl: TEST_PUBLIC_URL,
    s3: s3?.options,
    pool,
    log: () => undefined,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const client =
    s3 &&
    new S3Client({
      endpoint: s3.options.endpoint,
      region: s3.options.region,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  /** Every stored thing, finished or not: files under the storage root, or objects and pending uploads. */
  async function storedFiles(): Promise<string[]> {
    if (!s3 || !client) return listFiles(join(dataDir, 'storage'));
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.options.bucket }));
    return [...(listed.Contents ?? []).map((o) => o.Key!), ...(await s3.pendingUploads())].sort();
  }

  afterAll(async () => {
    await app.close();
    client?.destroy();
    await s3?.close();
    await rm(base, { recursive: true, force: true });
  });
  // The same driver, for tests that tamper with the stored bytes behind the app's back.
  const storage = createStorage({ dataDir, s3: s3?.options });
  return {
    app: app as FastifyInstance,
    url,
    pool,
    projectId,
    serviceKey,
    fileStore,
    storage,
    base,
    dataDir,
    storedFiles,
  };
}

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}
