// npm run backup / restore / migrate-data as a user runs them: child processes on a real
// embedded install (DATA_DIR, no DATABASE_URL) made and checked through the real server
// process, with their exit codes and what they print. (The copying itself: backup.test.ts,
// migrate-data.test.ts.)
import { existsSync } from 'node:fs';
import { appendFile, chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../db/embedded.js';
import { type ServerProcess, startServerProcess } from '../test-support/server-process.js';
import { startS3Peer } from '../storage/test-support/s3-peer.js';
import { createTestDatabase } from '../test-support/test-database.js';
import { TEST_PASSWORD } from '../test-support/users.js';
import { rowCounts } from './test-support/installs.js';
import { runToolProcess, type ToolRun } from './test-support/tool-process.js';

let root: string; // every folder of this file: DATA_DIRs and backups
let s3: Awaited<ReturnType<typeof startS3Peer>>;
let target: Awaited<ReturnType<typeof createTestDatabase>>;
const running = new Set<ServerProcess>();

/** The embedded install the story starts from, and what its user did there. */
const install = {
  dataDir: '',
  email: 'admin@example.com',
  accessToken: '',
  publicUrl: '',
  bytes: Buffer.from(`pump manual ${Date.now()}`),
};
let backupOfRunning = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fieldassist-cli-'));
  // Run as root, the embedded PostgreSQL runs as the user 'postgres', which must pass through to DATA_DIR/pg.
  await chmod(root, 0o711);
  install.dataDir = join(root, 'install');
  s3 = await startS3Peer();
  target = await createTestDatabase({ empty: true });
});

afterAll(async () => {
  // SIGTERM, not -9: a server stops its embedded PostgreSQL before its folder is removed.
  await Promise.all([...running].map(stopServer));
  await s3?.close();
  await rm(root, { recursive: true, force: true });
});

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(await freePort(), { ...UNSET, ...env });
  running.add(server);
  return server;
}

/** SIGTERM, as a user stops it; resolves with the exit code. */
async function stopServer(server: ServerProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) =>
    server.child.exitCode !== null ? resolve(server.child.exitCode) : server.child.once('exit', resolve),
  );
  server.child.kill('SIGTERM');
  const code = await exited;
  running.delete(server);
  return code;
}

// Settings a developer's shell may carry that would point the processes elsewhere ('' is unset).
const UNSET = Object.fromEntries(
  [
    'DATABASE_URL',
    'DATA_DIR',
    'PUBLIC_URL',
    'REDIS_URL',
    'SERVICE_KEY',
    'AUTH_SECRET',
    'S3_ENDPOINT',
    'S3_BUCKET',
    'S3_REGION',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
    'S3_FORCE_PATH_STYLE',
  ].map((name) => [name, '']),
);
const tool = (name: 'backup' | 'restore' | 'migrate-data', args: string[], env: Record<string, string>) =>
  runToolProcess(name, args, { ...UNSET, ...env });

const s3Env = (bucket = s3.options.bucket) => ({
  S3_ENDPOINT: s3.options.endpoint!,
  S3_BUCKET: bucket,
  S3_ACCESS_KEY_ID: s3.options.accessKeyId!,
  S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey!,
  S3_FORCE_PATH_STYLE: 'true',
});

function expectSuccess(run: ToolRun) {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
}

/** A refusal or failure: exit 1 and the message, never a stack trace. */
function expectFailure(run: ToolRun, message: RegExp) {
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

/** Every path under `dir` with its size and time: what "changes nothing" compares. */
async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      const { size, mtimeMs } = await stat(path);
      return `${relative(dir, path)} ${size} ${mtimeMs}`;
    }),
  );
  return lines.sort();
}

const json = { 'content-type': 'application/json' };

/** On `server`: the user signs in with their password, their earlier session still works, and the file downloads. */
async function expectUserFindsEverything(server: ServerProcess) {
  const signIn = await fetch(`${server.url}/api/auth/signin/email`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: install.email, password: TEST_PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  expect(((await signIn.json()) as { user: object }).user).toMatchObject({ email: install.email, role: 'admin' });
  // The same auth secret signs tokens here: a session from before the move goes on.
  const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${install.accessToken}` } });
  expect(me.status).toBe(200);
  const file = await fetch(`${server.url}${new URL(install.publicUrl).pathname}`);
  expect(file.status).toBe(200);
  expect(Buffer.from(await file.arrayBuffer())).toEqual(install.bytes);
}

describe('the backup, restore and migrate-data commands on an embedded install', () => {
  it(
    'backup reads a running server through its embedded database; migrate-data refuses to copy it',
    { timeout: 90_000 },
    async () => {
      const server = await startServer({ DATA_DIR: install.dataDir });
      const signUp = await fetch(`${server.url}/api/auth/signup`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: install.email, password: TEST_PASSWORD }),
      });
      expect(signUp.status).toBe(200); // the first account: admin
      install.accessToken = ((await signUp.json()) as { access_token: string }).access_token;
      const form = new FormData();
      form.append('path', 'manuals/pump.txt');
      form.append('file', new Blob([new Uint8Array(install.bytes)], { type: 'text/plain' }), 'pump.txt');
      const upload = await fetch(`${server.url}/api/storage/fieldassist/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${install.accessToken}` },
        body: form,
      });
      expect(upload.status).toBe(200);
      install.publicUrl = ((await upload.json()) as { publicUrl: string }).publicUrl;

      const backup = await tool('backup', [join(root, 'backups-running')], { DATA_DIR: install.dataDir });
      expectSuccess(backup);
      backupOfRunning = /backup written to (\S+): /.exec(backup.stdout)?.[1] ?? '';
      const manifest = JSON.parse(await readFile(join(backupOfRunning, 'manifest.json'), 'utf8'));
      expect(manifest).toMatchObject({
        files: 1,
        missingFiles: [],
        tables: { auth_accounts: 1, user_roles: 1, storage_objects: 1 },
      });
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200); // the server's database was left running

      const migrate = await tool('migrate-data', [], {
        DATA_DIR: install.dataDir,
        DATABASE_URL: target.url,
        ...s3Env(),
      });
      expectFailure(migrate, /\[fieldassist\] FieldAssist is running on this DATA_DIR: stop it first/);
      const { rows } = await target.pool.query(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`,
      );
      expect(rows[0].n).toBe(0);

      expect(await stopServer(server), server.output()).toBe(0);
    },
  );

  it(
    'backup of the stopped install starts its database, prints a summary and stops the database again; a DATA_DIR without one is refused',
    { timeout: 60_000 },
    async () => {
      const outDir = join(root, 'backups');
      // A mistyped DATA_DIR: refused, instead of a new empty database made there and backed up.
      const nowhere = join(root, 'not-an-install');
      expectFailure(
        await tool('backup', [outDir], { DATA_DIR: nowhere }),
        /\[fieldassist\] No FieldAssist database in \S+not-an-install \(no pg folder\): set DATA_DIR/,
      );
      expect(existsSync(nowhere)).toBe(false);
      expect(existsSync(outDir)).toBe(false);

      const run = await tool('backup', [outDir], { DATA_DIR: install.dataDir });
      expectSuccess(run);
      const [, path, rows, tables] =
        /\[fieldassist\] backup written to (\S+): (\d+) rows in (\d+) tables, 1 files\n/.exec(run.stdout) ?? [];
      expect(path).toMatch(new RegExp(`^${outDir}/fieldassist-backup-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z$`));
      const manifest = JSON.parse(await readFile(join(path!, 'manifest.json'), 'utf8')) as {
        tables: Record<string, number>;
      };
      expect(Object.values(manifest.tables).reduce((sum, n) => sum + n, 0)).toBe(Number(rows));
      expect(Object.keys(manifest.tables)).toHaveLength(Number(tables));
      expect(existsSync(join(install.dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    },
  );

  it(
    'restore refuses without a folder and into a DATA_DIR in use, and a failed restore leaves nothing behind',
    { timeout: 60_000 },
    async () => {
      expectFailure(
        await tool('restore', [], { DATA_DIR: join(root, 'unused') }),
        /\[fieldassist\] Name the backup folder: npm run restore -- backups\//,
      );
      expect(existsSync(join(root, 'unused'))).toBe(false);

      const before = await listTree(install.dataDir);
      expectFailure(
        await tool('restore', [backupOfRunning], { DATA_DIR: install.dataDir }),
        /already has a database: restore into an empty DATA_DIR/,
      );
      expect(await listTree(install.dataDir)).toEqual(before);

      const withFiles = join(root, 'with-files');
      await mkdir(join(withFiles, 'storage', 'manuals'), { recursive: true });
      await writeFile(join(withFiles, 'storage', 'manuals', 'old.pdf'), 'old');
      expectFailure(
        await tool('restore', [backupOfRunning], { DATA_DIR: withFiles }),
        /storage already has files: restore into an empty DATA_DIR/,
      );

      // A damaged backup fails after the database was made: the DATA_DIR the restore made is removed, so it can be run again.
      const damaged = join(root, 'damaged-backup');
      await cp(backupOfRunning, damaged, { recursive: true });
      await appendFile(join(damaged, 'database', 'auth_accounts.ndjson'), '{"id": "usr_cut\n');
      const restoredDir = join(root, 'restored');
      expectFailure(
        await tool('restore', [damaged], { DATA_DIR: restoredDir }),
        /\[fieldassist\] invalid input syntax for type json/,
      );
      expect(existsSync(restoredDir)).toBe(false);
    },
  );

  it(
    'restore into a new DATA_DIR gives an install where the user signs in and downloads the file',
    { timeout: 90_000 },
    async () => {
      const restoredDir = join(root, 'restored');
      const run = await tool('restore', [backupOfRunning], { DATA_DIR: restoredDir });
      expectSuccess(run);
      expect(run.stdout).toMatch(
        new RegExp(`\\[fieldassist\\] restored \\d+ rows in \\d+ tables and 1 files into ${restoredDir}\\n`),
      );

      const server = await startServer({ DATA_DIR: restoredDir });
      await expectUserFindsEverything(server);
      expect(await stopServer(server), server.output()).toBe(0);
    },
  );

  it(
    'migrate-data refuses without DATABASE_URL, and a bucket that refuses the files leaves the database without rows',
    { timeout: 60_000 },
    async () => {
      expectFailure(
        await tool('migrate-data', [], { DATA_DIR: install.dataDir }),
        /\[fieldassist\] Set DATABASE_URL \(and S3_\* for the files\)/,
      );

      const run = await tool('migrate-data', [], {
        DATA_DIR: install.dataDir,
        DATABASE_URL: target.url,
        ...s3Env('no-such-bucket'),
      });
      expectFailure(
        run,
        /\[fieldassist\] Could not write the file [0-9a-f]{32}\/pump\.txt to the file storage: .*bucket/i,
      );
      const counts = await rowCounts(target.pool);
      expect(Object.keys(counts).length).toBeGreaterThan(0); // the schema is made; running again fills it
      expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    },
  );

  it(
    'migrate-data moves the stopped install onto PostgreSQL and S3, where the user signs in and downloads the file',
    { timeout: 90_000 },
    async () => {
      const run = await tool('migrate-data', [], { DATA_DIR: install.dataDir, DATABASE_URL: target.url, ...s3Env() });
      expectSuccess(run);
      const [, rows] =
        /\[fieldassist\] copied (\d+) rows in \d+ tables and 1 files into the bucket fieldassist-files\n/.exec(
          run.stdout,
        ) ?? [];
      expect(run.stdout).toMatch(/^\[fieldassist\] {3}auth_accounts: 1$/m);
      const counts = await rowCounts(target.pool);
      expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(Number(rows));

      // Started as the README says: the same settings, with the keys of the old DATA_DIR.
      const secret = async (name: string) => (await readFile(join(install.dataDir, name), 'utf8')).trim();
      const server = await startServer({
        DATA_DIR: join(root, 'moved'),
        DATABASE_URL: target.url,
        ...s3Env(),
        SERVICE_KEY: await secret('service-key'),
        AUTH_SECRET: await secret('auth-secret'),
      });
      await expectUserFindsEverything(server);
      expect(await stopServer(server), server.output()).toBe(0);

      // Run once more by mistake: refused, and nothing the new install wrote meanwhile is touched.
      const before = await rowCounts(target.pool);
      const again = await tool('migrate-data', [], { DATA_DIR: install.dataDir, DATABASE_URL: target.url, ...s3Env() });
      expectFailure(
        again,
        /\[fieldassist\] The target database already has rows in .*: copy only into a new, empty install/,
      );
      expect(await rowCounts(target.pool)).toEqual(before);
    },
  );
});
