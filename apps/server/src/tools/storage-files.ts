import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type pg from 'pg';
import type { Storage } from '../storage/storage.js';

/** The keys of the files under a disk storage root (DATA_DIR/storage), without unfinished uploads. */
export async function listStorageKeys(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((key) => !key.startsWith('.tmp/'))
    .sort();
}

/**
 * Writes every file under `root` to `storage` under the same key (so public URLs, which name
 * the key, stay valid), with the content type storage_objects records for it.
 */
export async function copyStorageFiles({
  root,
  storage,
  db,
}: {
  root: string;
  storage: Storage;
  db: pg.Pool | pg.ClientBase;
}): Promise<number> {
  const { rows } = await db.query<{ key: string; content_type: string }>(
    'SELECT key, content_type FROM storage_objects',
  );
  const contentTypes = new Map(rows.map((r) => [r.key, r.content_type]));
  const keys = await listStorageKeys(root);
  for (const key of keys) {
    try {
      await storage.write(key, createReadStream(join(root, key)), contentTypes.get(key) ?? 'application/octet-stream');
    } catch (error) {
      // The driver's own message ("The specified bucket does not exist") does not say what was being done.
      throw new Error(`Could not write the file ${key} to the file storage: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return keys.length;
}
