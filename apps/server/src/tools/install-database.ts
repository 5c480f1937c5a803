import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive, startEmbeddedPostgres } from '../db/embedded.js';

export interface InstallDatabase {
  url: string;
  /** 'running': the embedded PostgreSQL of a FieldAssist server that is up right now. */
  source: 'external' | 'running' | 'started';
  close(): Promise<void>;
}

/**
 * The database of an install: DATABASE_URL when given; else the embedded PostgreSQL in
 * DATA_DIR/pg, reached where its running server listens (postmaster.pid names the port), or
 * started for the tool and stopped by close(). Never stops a server another process runs.
 * Only with `create` (a restore into a new install) is a missing embedded database made.
 */
export async function openInstallDatabase({
  dataDir,
  databaseUrl,
  log,
  create = false,
}: {
  dataDir: string;
  databaseUrl?: string;
  log: (message: string) => void;
  create?: boolean;
}): Promise<InstallDatabase> {
  if (databaseUrl) return { url: databaseUrl, source: 'external', close: async () => undefined };
  const running = await runningEmbeddedUrl(dataDir);
  if (running) return { url: running, source: 'running', close: async () => undefined };
  // A mistyped DATA_DIR would otherwise get a new, empty database of its own.
  if (!create && !existsSync(join(dataDir, 'pg', 'PG_VERSION')))
    throw new Error(`No FieldAssist database in ${dataDir} (no pg folder): set DATA_DIR to the install's folder`);
  const embedded = await startEmbeddedPostgres({ dataDir, log });
  return { url: embedded.url, source: 'started', close: () => embedded.stop() };
}

async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, , , portLine] = (await readFile(pidFile, 'utf8')).split('\n');
  if (!isAlive(Number(pidLine))) return undefined; // left by a server killed with -9
  const password = (await readFile(join(dataDir, 'pg-password'), 'utf8')).trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${Number(portLine)}/fieldassist`;
}
