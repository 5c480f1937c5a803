import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import { isStorageKey } from './paths.js';
import type { Storage } from './storage.js';

// A part older than this was left by a crash mid-upload.
const STALE_PART_MS = 24 * 60 * 60 * 1000;

/**
 * Files on the local disk under `root` (DATA_DIR/storage), one folder per key. A write
 * goes to a temporary file in root/.tmp (the same file system), is fsynced, then renamed
 * into place: an aborted or failed upload never leaves a file under its key.
 */
export function createDiskStorage(root: string): Storage {
  const partsDir = join(root, '.tmp');
  let swept = false;

  const fileOf = (key: string) => {
    // Keys come from the service; refusing anything else keeps every path inside root.
    if (!isStorageKey(key)) throw new Error(`Not a storage key: ${JSON.stringify(key)}`);
    return join(root, key);
  };

  return {
    async write(key, body) {
      const target = fileOf(key);
      await mkdir(partsDir, { recursive: true });
      if (!swept) {
        swept = true;
        void sweepStaleParts(partsDir);
      }
      const part = join(partsDir, `${randomBytes(16).toString('hex')}.part`);
      const handle = await open(part, 'wx');
      try {
        for await (const chunk of body) await writeAll(handle, chunk as Buffer);
        await handle.sync();
        await handle.close();
        await mkdir(dirname(target), { recursive: true });
        await rename(part, target);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(part, { force: true });
        throw (error as NodeJS.ErrnoException).code === 'ENOSPC'
          ? new ApiError('STORAGE_FULL', 'The server has no space left to store this file')
          : error;
      }
    },

    async read(key, range): Promise<Readable | undefined> {
      try {
        const handle = await open(fileOf(key), 'r');
        return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async remove(key) {
      const file = fileOf(key);
      await rm(file, { force: true });
      await rmdir(dirname(file)).catch(() => undefined); // the key's folder, once empty
    },
  };
}

async function sweepStaleParts(partsDir: string) {
  const names = await readdir(partsDir).catch(() => []);
  for (const name of names) {
    const file = join(partsDir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_PART_MS) await rm(file, { force: true }).catch(() => undefined);
  }
}

/**
 * Writes every byte of `chunk`. A write may store fewer bytes than asked (a disk filling up):
 * the rest is written again, and a write that stores nothing means the disk is full.
 */
async function writeAll(handle: FileHandle, chunk: Buffer) {
  for (let offset = 0; offset < chunk.length;) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    if (bytesWritten === 0) throw Object.assign(new Error('No space left on device'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}
