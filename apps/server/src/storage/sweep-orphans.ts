import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type pg from 'pg';
import { createDiskStorage } from './disk.js';
import { isStorageKey } from './paths.js';

// A file is renamed to its key before its storage_objects row is inserted (uploadFile and
// saveServerFile, the only writers while the server runs): a kill -9 in between leaves a whole
// file no row refers to. Those writers insert the row milliseconds after the rename, and the
// restore tool writes its files inside the transaction that commits their rows, with the server
// stopped. A file without a row that is an hour old was left by a crash, not by a write in flight.
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

const KEYS_PER_QUERY = 1000;

export interface OrphanSweepOptions {
  pool: pg.Pool;
  /** The disk driver's root: DATA_DIR/storage. */
  root: string;
  minAgeMs?: number;
  now?: () => number;
  /** Aborted: the sweep stops before its next step. */
  signal?: AbortSignal;
}

/**
 * Removes the files under `root` whose key has no storage_objects row and that are older than
 * `minAgeMs`, with their key's folder once empty. Only names that are storage keys are looked
 * at: unfinished uploads (root/.tmp) are the disk driver's to sweep. When the old files without
 * a row outnumber the files with one, the database is not this folder's (DATABASE_URL set to a
 * new or another database, migrate-data not run or failed): nothing is removed, and
 * `leftInPlace` counts them.
 */
export async function sweepOrphanFiles({
  pool,
  root,
  minAgeMs = ORPHAN_MIN_AGE_MS,
  now = Date.now,
  signal,
}: OrphanSweepOptions): Promise<{ removed: number; leftInPlace: number }> {
  const none = { removed: 0, leftInPlace: 0 };
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const keys = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(isStorageKey);

  const known = new Set<string>();
  for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
    if (signal?.aborted) return none;
    const { rows } = await pool.query<{ key: string }>('SELECT key FROM storage_objects WHERE key = ANY ($1::text[])', [
      keys.slice(i, i + KEYS_PER_QUERY),
    ]);
    for (const row of rows) known.add(row.key);
  }
  const oldBefore = now() - minAgeMs;
  const orphans: string[] = [];
  for (const key of keys) {
    if (signal?.aborted) return none;
    if (known.has(key)) continue;
    const info = await stat(join(root, key)).catch(() => undefined);
    if (info && info.mtimeMs < oldBefore) orphans.push(key);
  }
  if (orphans.length > known.size) return { removed: 0, leftInPlace: orphans.length };

  const disk = createDiskStorage(root);
  let removed = 0;
  for (const key of orphans) {
    if (signal?.aborted) break;
    await disk.remove(key); // and the key's folder, once empty
    removed++;
  }
  return { removed, leftInPlace: 0 };
}

/**
 * Runs one sweep in the background (it does not delay the start) and reports its outcome.
 * `stop` makes it end at its next step and resolves once it has: the pool may end right after.
 */
export function startOrphanSweep(
  options: Omit<OrphanSweepOptions, 'signal'> & { log: { info(message: string): void; warn(message: string): void } },
) {
  const controller = new AbortController();
  const done = sweepOrphanFiles({ ...options, signal: controller.signal }).then(
    ({ removed, leftInPlace }) => {
      if (removed > 0)
        options.log.info(
          `removed ${removed} orphaned file${removed === 1 ? '' : 's'} (no storage_objects row, older than ${(options.minAgeMs ?? ORPHAN_MIN_AGE_MS) / 60_000} min) from ${options.root}`,
        );
      if (leftInPlace > 0)
        options.log.warn(
          `${options.root} has more old files without a storage_objects row (${leftInPlace}) than with one: is this its database? None was removed`,
        );
    },
    (error: Error) => {
      if (!controller.signal.aborted)
        options.log.warn(`could not sweep orphaned files from ${options.root}: ${error.message}`);
    },
  );
  return {
    async stop() {
      controller.abort();
      await done;
    },
  };
}
