import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The real server process, started from source as `npm start` runs it, for fault tests that
// kill it (-9) and start it again on the same DATA_DIR and database.

const mainTs = fileURLToPath(new URL('../main.ts', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** SIGKILL: no shutdown hook runs, requests in flight are cut off. */
  kill9(): Promise<void>;
}

/** Starts main.ts with `env` on `port` and waits until /healthz answers (at most 60 s). */
export async function startServerProcess(port: number, env: Record<string, string>): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: 'test', WEB_DIST: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c: Buffer) => (output += c));
  child.stderr!.on('data', (c: Buffer) => (output += c));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return {
        child,
        url,
        output: () => output,
        async kill9() {
          child.kill('SIGKILL');
          await exited;
        },
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${output}`);
}
