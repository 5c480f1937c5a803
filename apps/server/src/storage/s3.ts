import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import type { Storage } from './storage.js';

export interface S3Options {
  /** Unset: AWS S3 itself. Set for MinIO, R2, GCS interop, ... */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Unset: the SDK's default credential chain (instance role, AWS_* variables). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Bucket in the path (`host/bucket/key`) rather than the host name; MinIO needs it. */
  forcePathStyle: boolean;
}

// Uploads are sent in parts of this size, at most two at a time: at most 10 MB of a
// file is in memory, whatever its size. (5 MB is the smallest part S3 accepts.)
const PART_BYTES = 5 * 1024 * 1024;

/** Files in an S3-compatible bucket, each object under its key. */
export function createS3Storage(options: S3Options): Storage {
  const bucket = options.bucket;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
    // Checksum trailers only where S3 requires them: many S3-compatible stores refuse them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  return {
    async write(key, body, contentType) {
      // A multipart upload that fails is aborted (leavePartsOnError: false), and an object
      // appears only when the upload completes: a failed write leaves nothing in the bucket.
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    },

    async read(key, range) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: range && `bytes=${range.start}-${range.end}` }),
        );
        return object.Body as Readable;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
