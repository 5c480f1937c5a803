/**
 * bench/load: simulated technicians on loopback against the real server (started from source,
 * local AI provider, embedded or TEST_DATABASE_URL PostgreSQL). Each one, with a think time
 * between actions, lists their jobs, changes a job's status, asks the chat (streamed to the last
 * byte) and browses the library (manuals, tags). Then the same number of clients with the same
 * think time on GET /healthz, as a baseline. Reports answers by status (no 5xx is the target),
 * p50/p99 per action and the server's resident memory over time.
 *
 *   npx tsx bench/load/run.ts [--users 200] [--duration 60] [--baseline 30] [--think-ms 1000]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBenchDatabase } from '../tools/database.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '200' },
    duration: { type: 'string', default: '60' },
    baseline: { type: 'string', default: '30' },
    'think-ms': { type: 'string', default: '1000' },
  },
});
const opts = {
  users: Number(args.users),
  duration: Number(args.duration),
  baseline: Number(args.baseline),
  thinkMs: Number(args['think-ms']),
};
const root = new URL('../../', import.meta.url).pathname;
const log = (message: string) => console.log(`[bench/load] ${message}`);
const cleanups: (() => Promise<unknown>)[] = [];
const SERVICE_KEY = `blnk_sk_bench_${randomBytes(24).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** A fresh database on TEST_DATABASE_URL / DATABASE_URL when set (dropped at the end), else the embedded one. */
async function databaseEnv(): Promise<Record<string, string>> {
  const database = await createBenchDatabase(cleanups);
  return database ? { DATABASE_URL: database.url } : {};
}

async function startServer(): Promise<{ base: string; child: ChildProcess }> {
  const port = 3800 + Math.floor(Math.random() * 90);
  const dataDir = await mkdtemp(join(tmpdir(), 'fa-bench-load-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // Behind a proxy (TRUST_PROXY): each technician comes from an address of their own, as in the field.
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SIGNUP_MODE: 'open',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SMTP_URL: '',
    SERVICE_KEY,
    TRUST_PROXY: 'loopback',
    ...(await databaseEnv()),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (
    !(await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not start');
    await sleep(250);
  }
  return { base, child };
}

interface Technician {
  headers: Record<string, string>;
  userId: string;
  jobIds: string[];
}

/** The library (20 manuals of 10 passages, 30 tags) through raw SQL, and the technicians with 10 jobs each. */
async function seed(base: string): Promise<Technician[]> {
  const service = { authorization: `Bearer ${SERVICE_KEY}`, 'content-type': 'application/json' };
  const sql = async (query: string) => {
    const res = await fetch(`${base}/api/db/fieldassist/sql`, {
      method: 'POST',
      headers: service,
      body: JSON.stringify({ query }),
    });
    if (!res.ok) throw new Error(`seed: ${res.status} ${await res.text()}`);
  };
  await sql(`INSERT INTO manuals (id, title, file_url, file_name, processing_status)
    SELECT 'manual_' || i, 'Compressor CP-' || i || ' service manual', '/files/none/' || i || '.pdf', 'cp-' || i || '.pdf', 'ready' FROM generate_series(1, 20) i`);
  await sql('DELETE FROM ingestion_jobs'); // rows as ingestion would leave them: nothing to extract
  await sql(`INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
    SELECT 'mc_' || m || '_' || p, 'manual_' || m, 'Compressor CP-' || m || ' page ' || p || ': error E' || (40 + p) || ' means low refrigerant pressure; check the service valve and torque the flare nut to ' || (10 + p) || ' Nm.', p - 1, p
    FROM generate_series(1, 20) m, generate_series(1, 10) p`);
  await sql(`INSERT INTO tags (id, name) SELECT 'tag_' || i, 'Tag ' || i FROM generate_series(1, 30) i`);

  const technicians: Technician[] = [];
  for (let i = 0; i < opts.users; i++) {
    const email = `tech-${i}@example.com`;
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf(i) },
      body: JSON.stringify({ email, password: 'bench-Password-123!' }),
    });
    if (!res.ok) throw new Error(`sign-up ${email}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { access_token: string; user: { id: string } };
    const headers = {
      authorization: `Bearer ${body.access_token}`,
      'content-type': 'application/json',
      'x-forwarded-for': addressOf(i),
    };
    const jobs = Array.from({ length: 10 }, (_, j) => ({
      user_id: body.user.id,
      title: `Job ${j} of ${email}`,
      description: 'Rooftop unit trips on high pressure',
    }));
    const created = await fetch(`${base}/api/db/fieldassist/rest/v1/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify(jobs),
    });
    technicians.push({
      headers,
      userId: body.user.id,
      jobIds: ((await created.json()) as { id: string }[]).map((j) => j.id),
    });
  }
  return technicians;
}

const addressOf = (i: number) => `10.20.${Math.floor(i / 250)}.${(i % 250) + 1}`;

interface Tally {
  latencies: number[];
  statuses: Record<string, number>;
}

type Action = (base: string, t: Technician) => Promise<number>;

const rest = (base: string, path: string) => `${base}/api/db/fieldassist/rest/v1/${path}`;
const statuses = ['pending', 'in-progress', 'completed'];

/** Each action returns the status; a body is read to its end, as a browser would. */
const actions: Record<string, { weight: number; run: Action }> = {
  'list jobs': {
    weight: 30,
    run: async (base, t) =>
      drain(
        await fetch(rest(base, `jobs?select=*&user_id=eq.${t.userId}&order=created_at.desc`), { headers: t.headers }),
      ),
  },
  'change a job status': {
    weight: 15,
    run: async (base, t) => {
      const id = t.jobIds[Math.floor(Math.random() * t.jobIds.length)];
      const body = JSON.stringify({ status: statuses[Math.floor(Math.random() * 3)] });
      return drain(await fetch(rest(base, `jobs?id=eq.${id}`), { method: 'PATCH', headers: t.headers, body }));
    },
  },
  'chat (streamed to the end)': {
    weight: 10,
    run: async (base, t) =>
      drain(
        await fetch(`${base}/api/app/fieldassist/chat`, {
          method: 'POST',
          headers: t.headers,
          body: JSON.stringify({
            question: `What does error E${41 + Math.floor(Math.random() * 10)} on the CP-${1 + Math.floor(Math.random() * 20)} mean?`,
          }),
        }),
      ),
  },
  'list manuals': {
    weight: 30,
    run: async (base, t) =>
      drain(await fetch(rest(base, 'manuals?select=*&order=created_at.desc'), { headers: t.headers })),
  },
  'list tags': {
    weight: 15,
    run: async (base, t) => drain(await fetch(rest(base, 'tags?select=*&order=name.asc'), { headers: t.headers })),
  },
};

async function drain(res: Response): Promise<number> {
  await res.arrayBuffer();
  return res.status;
}

function pick(): string {
  const names = Object.keys(actions);
  let r = Math.random() * names.reduce((sum, n) => sum + actions[n]!.weight, 0);
  for (const name of names) if ((r -= actions[name]!.weight) < 0) return name;
  return names[0]!;
}

/** Every technician acts, thinks 0.5-1.5 x think-ms, and acts again, for `seconds`; memory sampled every second. */
async function drive(
  seconds: number,
  technicians: Technician[],
  pid: number,
  choose: () => string,
  table: Record<string, { run: Action }>,
  base: string,
) {
  const tallies: Record<string, Tally> = {};
  const memory: { s: number; mb: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(
    () =>
      void rssMb(pid).then(
        (mb) => memory.push({ s: Math.round((Date.now() - started) / 1000), mb }),
        () => undefined,
      ),
    1000,
  );
  memory.push({ s: 0, mb: await rssMb(pid) });
  const end = started + seconds * 1000;
  await Promise.all(
    technicians.map(async (t) => {
      await sleep(Math.random() * opts.thinkMs); // spread the first requests
      while (Date.now() < end) {
        const name = choose();
        const tally = (tallies[name] ??= { latencies: [], statuses: {} });
        const t0 = performance.now();
        const status = await table[name]!.run(base, t).catch(() => 'network error');
        tally.latencies.push(performance.now() - t0);
        tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
        await sleep(opts.thinkMs * (0.5 + Math.random()));
      }
    }),
  );
  clearInterval(sampler);
  memory.push({ s: Math.round((Date.now() - started) / 1000), mb: await rssMb(pid) });
  return { tallies, memory };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

function summarise(tallies: Record<string, Tally>, seconds: number) {
  return Object.entries(tallies).map(([action, t]) => {
    const sorted = [...t.latencies].sort((a, b) => a - b);
    const fivexx = Object.entries(t.statuses)
      .filter(([s]) => s.startsWith('5') || s === 'network error')
      .reduce((n, [, c]) => n + c, 0);
    return {
      action,
      requests: sorted.length,
      perSecond: Math.round(sorted.length / seconds),
      p50: +quantile(sorted, 0.5).toFixed(1),
      p99: +quantile(sorted, 0.99).toFixed(1),
      max: +(sorted.at(-1) ?? 0).toFixed(1),
      statuses: t.statuses,
      fivexx,
    };
  });
}

try {
  log(
    `${opts.users} technicians, think time ${opts.thinkMs} ms (x0.5-1.5), ${opts.duration} s of load, then ${opts.baseline} s of GET /healthz`,
  );
  const { base, child } = await startServer();
  const technicians = await seed(base);
  log(`seeded: ${technicians.length} technicians with 10 jobs each, 20 manuals x 10 passages, 30 tags`);
  const app = await drive(opts.duration, technicians, child.pid!, pick, actions, base);
  const baseline = await drive(
    opts.baseline,
    technicians,
    child.pid!,
    () => 'GET /healthz',
    { 'GET /healthz': { run: async (b) => drain(await fetch(`${b}/healthz`)) } },
    base,
  );
  const rows = [
    ...summarise(app.tallies, opts.duration),
    ...summarise(baseline.tallies, opts.baseline).map((r) => ({ ...r, action: `baseline: ${r.action}` })),
  ];
  console.log(
    [
      '| action | requests | req/s | p50 ms | p99 ms | max ms | answers | 5xx or failed |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
      ...rows.map(
        (r) =>
          `| ${r.action} | ${r.requests} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.max} | ${Object.entries(
            r.statuses,
          )
            .map(([s, n]) => `${s}: ${n}`)
            .join(', ')} | ${r.fivexx} |`,
      ),
    ].join('\n'),
  );
  const series = (m: { s: number; mb: number }[]) =>
    m
      .filter((x, i) => i === 0 || i === m.length - 1 || x.s % 10 === 0)
      .map((x) => `${x.s}s ${x.mb}`)
      .join(', ');
  console.log(`server RSS MB during load: ${series(app.memory)} (peak ${Math.max(...app.memory.map((m) => m.mb))})`);
  console.log(`server RSS MB during baseline: ${series(baseline.memory)}`);
  await mkdir(join(root, 'bench/results'), { recursive: true });
  await writeFile(
    join(root, `bench/results/load-${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ opts, rows, memory: { load: app.memory, baseline: baseline.memory } }, null, 2),
  );
  process.exitCode = rows.some((r) => r.fivexx > 0) ? 1 : 0;
} finally {
  for (const step of cleanups.splice(0).reverse()) await step().catch((error: unknown) => console.error(error));
}
