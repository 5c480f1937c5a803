import type pg from 'pg';
import type { FolderRules } from './access.js';
import type { Storage } from './storage.js';

/** What the storage services run on; built once by createFileStore. */
export interface StorageContext {
  storage: Storage;
  pool: pg.Pool;
  /** The server's public origin: a file's URL is `${publicUrl}/files/<key>`. */
  publicUrl: string;
  /** Where failures that cannot reach a caller are reported (bytes left behind by a removal). */
  log: (message: string) => void;
  /** Who writes and reads which folders (the product's rules, from app.ts). */
  rules: FolderRules;
}

export const publicUrlOf = (ctx: StorageContext, key: string) => `${ctx.publicUrl}/files/${key}`;

/** Removes stored bytes whose row is gone; a failure leaves unreachable bytes, so it is only logged. */
export async function removeBytes(ctx: StorageContext, key: string): Promise<void> {
  await ctx.storage
    .remove(key)
    .catch((error: Error) => ctx.log(`Could not remove stored object ${key}: ${error.message}`));
}
