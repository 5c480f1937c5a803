import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedBuffersMb, startEmbeddedPostgres } from './embedded.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  it('keeps its data across restarts, and recovers from a postmaster left running and a stale pid file', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'fa-embedded-'));
    dirs.push(dataDir);
    const first = await startEmbeddedPostgres({ dataDir, log: () => undefined });
    // Its page cache is sized to the machine, not PostgreSQL's 128 MB default.
    // In MB from its 8 kB pages: SHOW writes a whole number of GB as "4GB".
    const buffers = "SELECT setting::bigint * 8 / 1024 AS mb FROM pg_settings WHERE name = 'shared_buffers'";
    expect(await query(first.url, buffers)).toEqual([{ mb: String(sharedBuffersMb()) }]);
    await query(first.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    // Not stopped: as if the server had been killed with -9, its postmaster runs on.
    const orphanPid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const messages: string[] = [];
    const second = await startEmbeddedPostgres({ dataDir, log: (m) => messages.push(m) });
    expect(messages.join('\n')).toContain(`stopping a PostgreSQL (pid ${orphanPid}) left running`);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    await second.stop();

    // A pid file naming a process that is not PostgreSQL (the pid was reused after a crash).
    const sleeper = spawn('sleep', ['30']);
    await writeFile(join(dataDir, 'pg', 'postmaster.pid'), `${sleeper.pid}\n${join(dataDir, 'pg')}\n`);
    const third = await startEmbeddedPostgres({ dataDir, log: () => undefined });
    expect(await query(third.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    await third.stop();
    sleeper.kill();
  }, 120_000);
});

describe('sharedBuffersMb', () => {
  it('is a quarter of the memory, at least 128 MB and at most 8 GB', () => {
    const gib = 2 ** 30;
    expect(sharedBuffersMb(24 * gib)).toBe(6144);
    expect(sharedBuffersMb(256 * 2 ** 20)).toBe(128);
    expect(sharedBuffersMb(64 * gib)).toBe(8192);
  });
});
