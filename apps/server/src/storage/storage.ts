import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createDiskStorage } from './disk.js';
import { createS3Storage, type S3Options } from './s3.js';

/** An inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The capability every file driver offers. Keys are made by the service (keys.ts), never
 * taken from a client, so a driver never sees a user-given path.
 */
export interface Storage {
  /** Stores the whole body under `key`. If the body or the write fails, nothing is left behind. */
  write(key: string, body: Readable, contentType: string): Promise<void>;
  /** The object's bytes, or only `range` of them; undefined when there is no such object. */
  read(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes the object; removing a missing object is not an error. */
  remove(key: string): Promise<void>;
}

export interface StorageOptions {
  /** The disk driver keeps files in dataDir/storage. */
  dataDir: string;
  /** Set (S3_BUCKET): files go to that bucket instead of the disk. */
  s3?: S3Options;
}

/** Picks the driver from config: S3 when a bucket is configured, else the local disk. */
export function createStorage({ dataDir, s3 }: StorageOptions): Storage {
  return s3 ? createS3Storage(s3) : createDiskStorage(join(dataDir, 'storage'));
}
