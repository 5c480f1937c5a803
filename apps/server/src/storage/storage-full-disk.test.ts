import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';
import { signUpUser } from '../test-support/users.js';
import { MB, multipart } from './test-support/upload-requests.js';

/** A 2 MB file system for DATA_DIR (a tmpfs: root only); undefined where it cannot be made. */
async function smallDisk(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'fieldassist-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    await rm(dir, { recursive: true, force: true });
    return undefined;
  }
}

const disk = await smallDisk();
if (!disk) console.warn('No tmpfs could be mounted (needs root): the full-disk upload test is left out.');

describe.runIf(disk)('an upload onto a full disk', () => {
  afterAll(async () => {
    execFileSync('umount', [disk!]);
    await rm(disk!, { recursive: true, force: true });
  });

  it('answers 507 with a clear message and leaves nothing half-written; the next small file fits', async () => {
    const { app, pool } = await buildTestApp({ DATA_DIR: disk! });
    const user = await signUpUser(app, { role: 'technician' });
    const upload = (path: string, bytes: Buffer) => {
      const { payload, contentType } = multipart([
        { name: 'path', value: path },
        { name: 'file', fileName: 'f.bin', bytes },
      ]);
      return app.inject({
        method: 'POST',
        url: '/api/storage/fieldassist/upload',
        headers: { ...user.headers, 'content-type': contentType },
        payload,
      });
    };
    const full = await upload('chat-images/too-big.bin', Buffer.alloc(3 * MB, 7));
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({
      error: 'The server has no space left to store this file',
      message: 'The server has no space left to store this file',
      code: 'STORAGE_FULL',
    });
    expect((await pool.query("SELECT 1 FROM storage_objects WHERE path LIKE 'chat-images/too-big%'")).rowCount).toBe(0);
    const left = (await readdir(join(disk!, 'storage'), { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    );
    expect(left).toEqual([]);

    expect((await upload('chat-images/small.bin', Buffer.alloc(100 * 1024, 1))).statusCode).toBe(200);
    await app.close();
  });
});
