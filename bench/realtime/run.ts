/**
 * bench/realtime: WebSocket clients on loopback in channels, each publishing at a steady rate;
 * the same load against the app (the real server, started from source) and against a bare `ws`
 * baseline, one after the other in the same run. Reports messages lost and duplicated (target 0),
 * delivery p50/p99, and the server's resident memory at the start and the end of the load.
 *
 *   npx tsx bench/realtime/run.ts [--clients 500] [--channels 50] [--rate 10] [--duration 60]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchDatabase } from '../tools/database.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '500' },
    channels: { type: 'string', default: '50' },
    rate: { type: 'string', default: '10' },
    duration: { type: 'string', default: '60' },
  },
});
const opts = {
  clients: Number(args.clients),
  channels: Number(args.channels),
  rate: Number(args.rate),
  duration: Number(args.duration),
};
const root = new URL('../../', import.meta.url).pathname;
const log = (message: string) => console.log(`[bench/realtime] ${message}`);
const cleanups: (() => Promise<unknown>)[] = [];

function start(command: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...command], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  });
  return child;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface LoadResult {
  sent: number;
  acked: number;
  errors: number;
  expected: number;
  received: number;
  lost: number;
  duplicates: number;
  p50: number;
  p99: number;
  max: number;
  seconds: number;
}

/** Runs the load against `url` while sampling the server's memory; returns the load's results. */
async function measure(url: string, tokens: string[], serverPid: number) {
  const memory: number[] = [await rssMb(serverPid)];
  const sampler = setInterval(
    () =>
      void rssMb(serverPid).then(
        (mb) => memory.push(mb),
        () => undefined,
      ),
    1000,
  );
  const load = start(
    [
      'bench/realtime/load.ts',
      url,
      JSON.stringify(tokens),
      ...[opts.clients, opts.channels, opts.rate, opts.duration].map(String),
    ],
    {},
  );
  let output = '';
  load.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((r) => load.once('exit', r));
  clearInterval(sampler);
  const result = JSON.parse(output.trim().split('\n').at(-1)!) as LoadResult;
  return { ...result, rssStartMb: memory[0]!, rssEndMb: memory.at(-1)!, rssPeakMb: Math.max(...memory) };
}

async function benchApp() {
  const port = 3900 + Math.floor(Math.random() * 90);
  const dataDir = await mkdtemp(join(tmpdir(), 'fa-bench-rt-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // A project of its own per run: with REDIS_URL, its rate limits and channels start empty
  // (the sign-up limit would otherwise refuse the users of the third run within ten minutes).
  const projectId = `bench-${Date.now()}`;
  const env: Record<string, string> = {
    PROJECT_ID: projectId,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIGNUP_MODE: 'open',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SMTP_URL: '',
  };
  const database = await createBenchDatabase(cleanups); // else the server starts its embedded one
  if (database) env.DATABASE_URL = database.url;
  const server = start(['apps/server/src/main.ts'], env);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${base}/healthz`)).ok, 'the app');
  const tokens: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench-${i}@example.com`, password: 'bench-Password-123!', projectId }),
    });
    tokens.push(((await res.json()) as { access_token: string }).access_token);
  }
  const result = await measure(`ws://127.0.0.1:${port}/?project_id=${projectId}`, tokens, server.pid!);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  return result;
}

async function benchBaseline() {
  const server = start(['bench/realtime/baseline-server.ts', '0'], {});
  const port = await new Promise<number>((resolve) =>
    server.stdout!.once('data', (chunk: Buffer) =>
      resolve((JSON.parse(chunk.toString()) as { listening: number }).listening),
    ),
  );
  const result = await measure(`ws://127.0.0.1:${port}/`, ['baseline'], server.pid!);
  server.kill('SIGTERM');
  return result;
}

try {
  log(
    `${opts.clients} clients in ${opts.channels} channels, ${opts.rate} messages/s each, ${opts.duration} s per target`,
  );
  const app = await benchApp();
  log(`app: ${JSON.stringify(app)}`);
  const baseline = await benchBaseline();
  log(`baseline: ${JSON.stringify(baseline)}`);
  const row = (name: string, r: LoadResult & { rssStartMb: number; rssEndMb: number; rssPeakMb: number }) =>
    `| ${name} | ${r.sent} | ${r.expected} | ${r.lost} | ${r.duplicates} | ${r.p50} | ${r.p99} | ${r.rssStartMb} | ${r.rssEndMb} | ${r.rssPeakMb} |`;
  console.log(
    [
      '| target | published | deliveries expected | lost | duplicated | p50 ms | p99 ms | RSS start MB | RSS end MB | RSS peak MB |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      row('app', app),
      row('baseline', baseline),
    ].join('\n'),
  );
  console.log(
    `ratio app/baseline: p99 ${(app.p99 / baseline.p99).toFixed(2)}, published ${(app.sent / baseline.sent).toFixed(2)}`,
  );
  await mkdir(join(root, 'bench/results'), { recursive: true });
  await writeFile(
    join(root, `bench/results/realtime-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ opts, app, baseline }, null, 2),
  );
  process.exitCode = app.lost === 0 && app.duplicates === 0 ? 0 : 1;
} finally {
  for (const step of cleanups.splice(0).reverse()) await step().catch((error: unknown) => console.error(error));
}
