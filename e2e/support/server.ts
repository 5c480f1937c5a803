import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERVER_ENTRY = join(REPO_ROOT, 'apps/server/dist/main.js');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_TAIL_CHARS = 8_000;

export type TestServer = {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Stops the server and deletes its database and data directory. */
  stop(): Promise<void>;
};

/**
 * Starts the real built server (`npm run build` first) on a free port with a fresh
 * DATA_DIR. With TEST_DATABASE_URL it gets a fresh database on that PostgreSQL; without,
 * it starts its own embedded PostgreSQL in DATA_DIR/pg. `options.port` fixes the port when
 * another party must know the URL first (an OIDC provider's redirect URI). Resolves once GET /healthz is 200;
 * throws with the tail of the server's output if it exits or times out first.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { port?: number } = {},
): Promise<TestServer> {
  const port = options.port ?? (await findFreePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'fa-e2e-'));
  const database = process.env.TEST_DATABASE_URL ? await createDatabase(process.env.TEST_DATABASE_URL) : undefined;

  // An inherited DATABASE_URL would point every test server at one shared database.
  const { DATABASE_URL: _inherited, ...inheritedEnv } = process.env;
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...inheritedEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a server that ignores SIGTERM is killed together with
    // its embedded PostgreSQL.
    detached: true,
  });
  const output = captureOutput(child);
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  async function stop(): Promise<void> {
    await stopChild(child);
    process.off('exit', killOnExit);
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }

  try {
    await waitForHealthy({ url, child, output });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/** A port nobody listens on right now. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `fa_e2e_${randomBytes(6).toString('hex')}`;
  await runSql(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // FORCE: a server killed with SIGKILL may leave connections the drop must not wait for.
  return { url: url.toString(), drop: () => runSql(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function runSql(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function captureOutput(child: ChildProcess): { tail(): string } {
  let text = '';
  const append = (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return { tail: () => text };
}

async function waitForHealthy({
  url,
  child,
  output,
}: {
  url: string;
  child: ChildProcess;
  output: { tail(): string };
}): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new Error(
        `server exited early (code ${child.exitCode}, signal ${child.signalCode}); output:\n${output.tail()}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not answer GET /healthz within ${START_TIMEOUT_MS / 1000} s; output:\n${output.tail()}`);
}

/** SIGTERM for a clean shutdown; SIGKILL to the whole group if that takes too long. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}
