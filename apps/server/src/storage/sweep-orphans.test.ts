import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/test-database.js';
import { buildTestApp } from '../test-support/test-server.js';
import { newStorageKey } from './paths.js';
import { ORPHAN_MIN_AGE_MS, sweepOrphanFiles } from './sweep-orphans.js';
import { eventually } from './test-support/upload-requests.js';

const HOUR = 60 * 60 * 1000;
const db = await createTestDatabase();
const base = await mkdtemp(join(tmpdir(), 'fieldassist-sweep-'));
afterAll(() => rm(base, { recursive: true, force: true }));

/** A file at `root/name`, last modified `ageMs` ago. */
async function put(root: string, name: string, ageMs: number) {
  const file = join(root, name);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, randomBytes(64));
  const time = new Date(Date.now() - ageMs);
  await utimes(file, time, time);
  return file;
}

async function addRow(key: string) {
  await db.pool.query(
    `INSERT INTO storage_objects (path, key, size, content_type, file_name) VALUES ($1, $2, 64, 'application/octet-stream', 'f.bin')`,
    [`chat-images/${key.replace('/', '-')}`, key],
  );
}

/** Under `root`: an old and a fresh file without a row, an old and a fresh one with a row, an old unfinished upload and a stray old file. */
async function layout(root: string) {
  const keys = {
    oldOrphan: newStorageKey('old.bin'),
    freshOrphan: newStorageKey('fresh.bin'),
    oldKept: newStorageKey('kept.bin'),
    freshKept: newStorageKey('new.bin'),
  };
  const files = {
    oldOrphan: await put(root, keys.oldOrphan, 2 * HOUR),
    freshOrphan: await put(root, keys.freshOrphan, 0),
    oldKept: await put(root, keys.oldKept, 30 * 24 * HOUR),
    freshKept: await put(root, keys.freshKept, 0),
    part: await put(root, `.tmp/${randomBytes(16).toString('hex')}.part`, 2 * HOUR),
    stray: await put(root, 'README.txt', 2 * HOUR),
  };
  await addRow(keys.oldKept);
  await addRow(keys.freshKept);
  return files;
}

describe('sweeping orphaned files on the disk', () => {
  it('removes an old file without a row, with its folder; keeps fresh ones, files with a row, unfinished uploads and other names', async () => {
    const root = join(base, 'one', 'storage');
    const files = await layout(root);
    expect(ORPHAN_MIN_AGE_MS).toBe(HOUR);

    expect(await sweepOrphanFiles({ pool: db.pool, root })).toEqual({ removed: 1, leftInPlace: 0 });
    expect(existsSync(files.oldOrphan)).toBe(false);
    expect(existsSync(dirname(files.oldOrphan))).toBe(false);
    for (const kept of [files.freshOrphan, files.oldKept, files.freshKept, files.part, files.stray])
      expect(existsSync(kept), kept).toBe(true);

    // A second pass finds nothing more; an hour later the file that was fresh is old too.
    expect(await sweepOrphanFiles({ pool: db.pool, root })).toEqual({ removed: 0, leftInPlace: 0 });
    expect(await sweepOrphanFiles({ pool: db.pool, root, now: () => Date.now() + 2 * HOUR })).toEqual({
      removed: 1,
      leftInPlace: 0,
    });
    expect(existsSync(files.freshOrphan)).toBe(false);
    for (const kept of [files.oldKept, files.freshKept, files.part, files.stray])
      expect(existsSync(kept), kept).toBe(true);
  });

  it("removes nothing when the old files without a row outnumber those with one (not this folder's database)", async () => {
    const root = join(base, 'other', 'storage');
    const files = await Promise.all([1, 2, 3].map((n) => put(root, newStorageKey(`file-${n}.pdf`), 48 * HOUR)));
    expect(await sweepOrphanFiles({ pool: db.pool, root })).toEqual({ removed: 0, leftInPlace: 3 });
    for (const file of files) expect(existsSync(file)).toBe(true);
  });

  it('does nothing once stopped, and nothing on a missing folder', async () => {
    const root = join(base, 'stopped', 'storage');
    const files = await layout(root);
    expect(await sweepOrphanFiles({ pool: db.pool, root, signal: AbortSignal.abort() })).toEqual({
      removed: 0,
      leftInPlace: 0,
    });
    expect(existsSync(files.oldOrphan)).toBe(true);
    expect(await sweepOrphanFiles({ pool: db.pool, root: join(base, 'missing') })).toEqual({
      removed: 0,
      leftInPlace: 0,
    });
  });

  it('runs when the app starts, in the background, and close waits for it', async () => {
    const dataDir = join(base, 'app');
    const files = await layout(join(dataDir, 'storage'));
    const { app } = await buildTestApp({ DATA_DIR: dataDir }, { pool: db.pool });
    try {
      await app.ready();
      await eventually(async () => expect(existsSync(files.oldOrphan)).toBe(false));
    } finally {
      await app.close();
    }
    expect(existsSync(dirname(files.oldOrphan))).toBe(false);
    for (const kept of [files.freshOrphan, files.oldKept, files.freshKept, files.part, files.stray])
      expect(existsSync(kept), kept).toBe(true);
  });

  it('is stopped cleanly by a close right after the start', async () => {
    const dataDir = join(base, 'closed');
    await layout(join(dataDir, 'storage'));
    const { app } = await buildTestApp({ DATA_DIR: dataDir }, { pool: db.pool });
    await app.ready();
    await app.close(); // resolves with the sweep stopped or done: the pool may end now
  });
});
