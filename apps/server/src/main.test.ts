import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded.js';

// The real process as `npm start` runs it (here from source through tsx): embedded
// PostgreSQL, migrations, the web app, kill -9 and graceful shutdown.
const mainTs = fileURLToPath(new URL('./main.ts', import.meta.url));
let dataDir: string;
let webDist: string;
let port: number;
let child: ChildProcess | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fa-main-'));
  webDist = await mkdtemp(join(tmpdir(), 'fa-web-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(
    join(webDist, 'index.html'),
    '<!doctype html><title>FieldAssist</title><script type="module" src="/assets/app-3f2a1b.js"></script>',
  );
  await writeFile(join(webDist, 'assets', 'app-3f2a1b.js'), 'console.log(1)');
  port = await freePort();
});

afterAll(async () => {
  child?.kill('SIGKILL');
  // Stop the embedded PostgreSQL the last start left, through a clean start and SIGTERM.
  await rm(dataDir, { recursive: true, force: true });
  await rm(webDist, { recursive: true, force: true });
});

async function start(): Promise<{ output: () => string }> {
  let output = '';
  child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { output: () => output };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${output}`);
}

const url = (path: string) => `http://127.0.0.1:${port}${path}`;
const exited = (c: ChildProcess) =>
  new Promise<number | null>((resolve) => (c.exitCode !== null ? resolve(c.exitCode) : c.once('exit', resolve)));

describe('the server process', () => {
  it('starts on the embedded defaults, generates a service key and serves the API and the app', async () => {
    await start();
    const key = (await readFile(join(dataDir, 'service-key'), 'utf8')).trim();
    expect(key).toMatch(/^blnk_sk_[a-z]+_[0-9a-f]{48}$/);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(url('/api/db/fieldassist/rest/v1/jobs'), {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: 'survivor', user_id: 'u', title: 't', description: 'd' }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const page = await fetch(url('/'));
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const asset = await fetch(url('/assets/app-3f2a1b.js'));
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const deepLink = await fetch(url('/some/where'), { headers: { accept: 'text/html' } });
    expect(await deepLink.text()).toContain('<title>FieldAssist</title>');
    const missingApi = await fetch(url('/api/nothing'), { headers: { accept: 'text/html' } });
    expect(missingApi.status).toBe(404);
    expect(await missingApi.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('comes back after kill -9 with its data', async () => {
    child!.kill('SIGKILL');
    await exited(child!);
    const { output } = await start();
    expect(output()).toContain('left running by an earlier start');
    const key = (await readFile(join(dataDir, 'service-key'), 'utf8')).trim();
    const res = await fetch(url('/api/db/fieldassist/rest/v1/jobs?id=eq.survivor'), {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await res.json()).toMatchObject([{ id: 'survivor' }]);
  });

  it('on SIGTERM finishes the request in flight, then stops the database and exits 0', async () => {
    const key = (await readFile(join(dataDir, 'service-key'), 'utf8')).trim();
    const slow = fetch(url('/api/db/fieldassist/sql'), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT 1 AS slept FROM pg_sleep(1)' }),
    });
    await new Promise((r) => setTimeout(r, 300));
    child!.kill('SIGTERM');
    const res = await slow;
    expect(res.status).toBe(200);
    expect((await res.json()).rows).toEqual([{ slept: 1 }]);
    expect(await exited(child!)).toBe(0);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    await expect(fetch(url('/healthz'))).rejects.toThrow();
  });
});
