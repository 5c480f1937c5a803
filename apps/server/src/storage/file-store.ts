import type pg from 'pg';
import type { Caller } from '../auth/caller.js';
import { closedFolders, type FolderRules } from './access.js';
import type { StorageContext } from './context.js';
import {
  findByPath,
  findFile,
  getDownload,
  readByPublicUrl,
  readFile,
  removeByPublicUrl,
  removeFiles,
  saveServerFile,
} from './files.js';
import type { StoredObject } from './objects.js';
import { type ByteRange, createStorage, type Storage, type StorageOptions } from './storage.js';
import { type UploadInput, uploadFile } from './upload.js';

export interface FileStoreOptions extends StorageOptions {
  /** The server's public origin (PUBLIC_URL): file URLs are `${publicUrl}/files/<key>`. */
  publicUrl: string;
  pool: pg.Pool;
  log: (message: string) => void;
  /** Who writes and reads which folders (the product's rules); default: users keep to their own files. */
  rules?: FolderRules;
  /** A driver to use instead of the one the options select. */
  storage?: Storage;
}

/**
 * The storage module's services on one driver (disk, or S3 when `s3` is set): what the
 * routes call, and what server-side code (manual ingestion) uses to read and delete files.
 */
export function createFileStore(options: FileStoreOptions) {
  const ctx: StorageContext = {
    storage: options.storage ?? createStorage(options),
    pool: options.pool,
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    log: options.log,
    rules: options.rules ?? closedFolders,
  };
  return {
    uploadFile: (input: UploadInput) => uploadFile(ctx, input),
    getDownload: (input: { caller: Caller; path: string; filename?: string }) => getDownload(ctx, input),
    removeFiles: (input: { caller: Caller; paths: string[] }) => removeFiles(ctx, input),
    findFile: (key: string) => findFile(ctx, key),
    findByPath: (path: string) => findByPath(ctx, path),
    readFile: (object: StoredObject, range?: ByteRange) => readFile(ctx, object, range),
    readByPublicUrl: (url: string) => readByPublicUrl(ctx, url),
    removeByPublicUrl: (url: string) => removeByPublicUrl(ctx, url),
    saveServerFile: (input: { path: string; bytes: Uint8Array; contentType: string }) => saveServerFile(ctx, input),
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
