import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Options } from '../s3.js';

/**
 * A real S3 peer (s3rver, speaking the S3 REST protocol) on loopback, its data in a temp
 * folder. s3rver lacks AbortMultipartUpload, which a failed upload sends: it is added here.
 */
export async function startS3Peer() {
  const directory = await mkdtemp(join(tmpdir(), 'fieldassist-s3-'));
  const bucket = 'fieldassist-files';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const uploadsDir = join(directory, bucket, '._S3rver_uploads');
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    if (ctx.method !== 'DELETE' || typeof uploadId !== 'string' || !/^[0-9a-f]+$/.test(uploadId)) return next();
    await rm(join(uploadsDir, uploadId), { recursive: true, force: true });
    ctx.status = 204;
  });
  const { port } = await server.run();
  const options: S3Options = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  return {
    options,
    /** Unfinished multipart uploads (their parts are files in the peer's folder). */
    pendingUploads: async () => (await readdir(uploadsDir).catch(() => [])).map((id) => `multipart upload ${id}`),
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
