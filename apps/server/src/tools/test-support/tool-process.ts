import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command-line tool as `npm run <tool> -- <args>` does (tsx on its source, from the
 * repository root) with `env` over this process's environment; resolves when it has exited.
 */
export function runToolProcess(
  tool: 'backup' | 'restore' | 'migrate-data',
  args: string[],
  env: Record<string, string>,
): Promise<ToolRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', `apps/server/src/tools/${tool}.ts`, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000, // a tool that hangs is killed, and the test sees a null exit code
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
