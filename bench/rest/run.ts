/**
 * bench/rest: the database REST API against a bare Fastify baseline, side by side in one run.
 *
 *   npx tsx bench/rest/run.ts [--duration 10] [--warmup 3] [--rounds 3] [--connections 10] [--pool 10]
 *
 * Both servers listen on 127.0.0.1 in this process and share ONE pg pool:
 *   app       buildApp() as main.ts builds it (logger level 'silent'), GET
 *             /api/db/{project}/rest/v1/jobs?select=*&user_id=eq.X&order=created_at.desc&limit=50
 *   baseline  a bare Fastify (logger off) answering the same URL by running the same SQL
 *             text with the same parameters through the same pool: reply.send(rows)
 * Before measuring, the run checks that the app sends exactly the baseline's SQL and that
 * both answer byte-identical JSON. autocannon runs in a child process (bench/rest/load.ts),
 * so its CPU and event loop stay apart from the servers', and each request asks for a
 * random seeded user. Warm-up, then rounds that alternate app and baseline (the order flips
 * every round). Besides req/s and latency, every round records the servers' process CPU
 * time per request, which moves less with background load on the machine than req/s and
 * explains the throughput ratio while the servers' thread is saturated. --profile writes
 * V8 CPU profiles of round 1 (which the profiler slows down). Results go to stdout and to
 * bench/results/rest-<timestamp>.json. Exit code 1: an invalid run (non-2xx, errors) or a
 * throughput ratio app/baseline below the target of 0.8.
 *
 * Database: TEST_DATABASE_URL or DATABASE_URL (a fresh fa_bench_<random> database is made
 * there and dropped at the end), else the embedded PostgreSQL in a temporary folder.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import type pg from 'pg';
import { openBenchDatabase } from '../tools/database.js';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { createPool } from '../../apps/server/src/db/pool.js';
import type { LoadJob } from './load.js';

const TARGET_RATIO = 0.8;
const PAGE = 50;
const HOST = '127.0.0.1';

/** What the REST route compiles `select=*&user_id=eq.X&order=created_at.desc&limit=50` to (checked below). */
const BASELINE_SQL =
  'SELECT "id", "user_id", "title", "description", "status", "priority", "created_at", "updated_at" FROM "jobs"' +
  ' WHERE "user_id" = $1 ORDER BY "created_at" DESC LIMIT $2 OFFSET $3';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    pool: { type: 'string', default: '10' },
    users: { type: 'string', default: '100' },
    'jobs-per-user': { type: 'string', default: '200' },
    /** Write a V8 CPU profile of the servers' thread during round 1 of each target. */
    profile: { type: 'boolean', default: false },
  },
});
const positive = (name: keyof typeof args): number => {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const opts = {
  duration: positive('duration'),
  warmup: positive('warmup'),
  rounds: positive('rounds'),
  connections: positive('connections'),
  pool: positive('pool'),
  users: positive('users'),
  jobsPerUser: positive('jobs-per-user'),
  profile: args.profile === true,
};

const log = (message: string) => console.log(`[bench/rest] ${message}`);
const cleanups: (() => Promise<unknown>)[] = [];

async function cleanup() {
  for (const step of cleanups.splice(0).reverse()) {
    await step().catch((error: unknown) => console.error('[bench/rest] cleanup failed:', error));
  }
}

// ---------------------------------------------------------------- database

const openDatabase = () => openBenchDatabase(cleanups, log);

/** A small deterministic PRNG, so every run seeds the same rows. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function seed(pool: pg.Pool, users: string[]): Promise<number> {
  const random = mulberry32(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const words = [
    'inspect',
    'replace',
    'boiler',
    'pump',
    'valve',
    'filter',
    'annual',
    'service',
    'north',
    'site',
    'unit',
    'check',
    'pressure',
    'leak',
    'sensor',
    'panel',
    'wiring',
    'roof',
    'compressor',
    'thermostat',
    'calibrate',
    'report',
    'customer',
    'urgent',
  ];
  const sentence = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');
  const statuses = ['pending', 'in-progress', 'completed'] as const;
  const priorities = ['low', 'medium', 'high'] as const;
  const now = Date.UTC(2026, 0, 1);

  const rows: [string, string, string, string, string, string, number, number][] = [];
  for (const user of users) {
    for (let j = 0; j < opts.jobsPerUser; j++) {
      const created = now - j * 3_600_000 - Math.floor(random() * 1_000_000);
      rows.push([
        hex(32),
        user,
        sentence(4),
        sentence(18),
        pick(statuses),
        pick(priorities),
        created,
        created + Math.floor(random() * 100_000),
      ]);
    }
  }
  // Shuffled, so a user's rows are spread over the table as real inserts would leave them.
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  const batch = 2_000;
  for (let i = 0; i < rows.length; i += batch) {
    const chunk = rows.slice(i, i + batch);
    const column = (k: number) => chunk.map((r) => r[k]);
    await pool.query(
      `INSERT INTO jobs (id, user_id, title, description, status, priority, created_at, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])`,
      [0, 1, 2, 3, 4, 5, 6, 7].map(column),
    );
  }
  await pool.query('VACUUM ANALYZE jobs');
  return rows.length;
}

// ---------------------------------------------------------------- servers

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: HOST });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return `http://${HOST}:${address.port}`;
}

/** A bare Fastify route: the same SQL, the same parameters, the same pool. */
function buildBaseline(pool: pg.Pool): FastifyInstance {
  const baseline = Fastify({ logger: false });
  baseline.get('/api/db/:projectId/rest/v1/:table', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const userId = query.user_id?.startsWith('eq.') ? query.user_id.slice(3) : undefined;
    if (userId === undefined) return reply.status(400).send({ error: 'user_id=eq.X required' });
    const { rows } = await pool.query(BASELINE_SQL, [userId, Number(query.limit ?? PAGE), 0]);
    return reply.send(rows);
  });
  return baseline;
}

// ---------------------------------------------------------------- checks

/** Runs `work` while recording what is sent through pool.query. */
async function capturingQueries<T>(pool: pg.Pool, work: () => Promise<T>): Promise<{ result: T; queries: unknown[] }> {
  const target = pool as unknown as { query: (...a: unknown[]) => unknown };
  const original = target.query;
  const queries: unknown[] = [];
  target.query = function (this: unknown, ...a: unknown[]) {
    queries.push(a[0]);
    return original.apply(this, a);
  };
  try {
    return { result: await work(), queries };
  } finally {
    target.query = original;
  }
}

async function fetchText(url: string, serviceKey: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${serviceKey}` } });
  return { status: response.status, text: await response.text() };
}

async function verify(opts: {
  pool: pg.Pool;
  appUrl: string;
  baselineUrl: string;
  path: (user: string) => string;
  serviceKey: string;
  users: string[];
}) {
  const samples = [opts.users[0]!, opts.users[Math.floor(opts.users.length / 2)]!, opts.users.at(-1)!];
  for (const user of samples) {
    const { result: app, queries: all } = await capturingQueries(opts.pool, () =>
      fetchText(opts.appUrl + opts.path(user), opts.serviceKey),
    );
    // The ingestion worker polls on the same pool in the background (plain-text queries); the
    // REST compiler sends query objects.
    const queries = all.filter((query) => typeof query === 'object');
    const baseline = await fetchText(opts.baselineUrl + opts.path(user), opts.serviceKey);
    if (app.status !== 200 || baseline.status !== 200) {
      throw new Error(
        `verification: status app ${app.status}, baseline ${baseline.status} for ${user}: ${app.text.slice(0, 200)}`,
      );
    }
    const expected = { text: BASELINE_SQL, values: [user, PAGE, 0] };
    if (queries.length !== 1 || !isDeepStrictEqual(queries[0], expected)) {
      throw new Error(
        `verification: the app's SQL differs from the baseline's:\n  app:      ${JSON.stringify(queries)}\n  baseline: ${JSON.stringify(expected)}`,
      );
    }
    if (app.text !== baseline.text)
      throw new Error(`verification: the app and the baseline answer different JSON for ${user}`);
    const rows = JSON.parse(app.text) as { user_id: string; created_at: number }[];
    const sorted = rows.every((r, i) => i === 0 || rows[i - 1]!.created_at >= r.created_at);
    if (rows.length !== PAGE || !sorted || rows.some((r) => r.user_id !== user)) {
      throw new Error(`verification: expected ${PAGE} rows of ${user} newest first, got ${rows.length}`);
    }
  }
  return { samples, bytes: (await fetchText(opts.appUrl + opts.path(samples[0]!), opts.serviceKey)).text.length };
}

// ---------------------------------------------------------------- measurement

interface Round {
  target: 'app' | 'baseline';
  round: number;
  reqPerSec: number;
  requests: number;
  p50: number;
  p90: number;
  p99: number;
  latencyMean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerSec: number;
  /** CPU time (user + system, all threads) of this process, which runs both servers, per request. */
  serverCpuUsPerRequest: number;
  /** Busy time of the servers' event loop (both servers, the pool, pg parsing) per request. */
  serverUsPerRequest: number;
  /** Event-loop utilisation of the servers' thread, 0..1. */
  serverElu: number;
}

/** The load generator child (load.ts); one autocannon run at a time. */
function startLoadGenerator() {
  // Inherit tsx's loader flags, not profiling or inspector flags meant for this process.
  const execArgv = process.execArgv.filter((a) => !/^--(cpu-prof|heap-prof|prof|inspect)/.test(a));
  const child: ChildProcess = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), [], {
    execArgv,
    stdio: 'inherit',
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill();
  });
  return (job: LoadJob): Promise<autocannon.Result> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load generator exited (code ${code})`));
      child.once('exit', onExit);
      child.once('message', (message: { result?: autocannon.Result; error?: string }) => {
        child.off('exit', onExit);
        if (message.result) resolve(message.result);
        else reject(new Error(`autocannon failed: ${message.error}`));
      });
      child.send(job);
    });
}

/** A V8 CPU profile of this (the servers') thread; the load generator is another process. */
async function startProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
  return {
    async stop(): Promise<object> {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile;
    },
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function summarise(rounds: Round[]) {
  return {
    reqPerSec: mean(rounds.map((r) => r.reqPerSec)),
    reqPerSecMin: Math.min(...rounds.map((r) => r.reqPerSec)),
    reqPerSecMax: Math.max(...rounds.map((r) => r.reqPerSec)),
    p50: mean(rounds.map((r) => r.p50)),
    p90: mean(rounds.map((r) => r.p90)),
    p99: mean(rounds.map((r) => r.p99)),
    p99Max: Math.max(...rounds.map((r) => r.p99)),
    serverUsPerRequest: mean(rounds.map((r) => r.serverUsPerRequest)),
    serverCpuUsPerRequest: mean(rounds.map((r) => r.serverCpuUsPerRequest)),
    requests: rounds.reduce((a, r) => a + r.requests, 0),
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    timeouts: rounds.reduce((a, r) => a + r.timeouts, 0),
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const db = await openDatabase();
  log(`database: ${db.kind}`);
  const pool = createPool(db.url, opts.pool);
  cleanups.push(() => pool.end());
  await migrate(pool);
  const serverVersion = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;

  const users = Array.from({ length: opts.users }, (_, i) => `bench-user-${String(i).padStart(4, '0')}`);
  const seedStart = Date.now();
  const jobRows = await seed(pool, users);
  log(
    `seeded ${fmt(jobRows)} jobs rows (${opts.users} users x ${opts.jobsPerUser}) in ${fmt((Date.now() - seedStart) / 1000, 1)} s`,
  );

  const serviceKey = `blnk_sk_bench_${randomBytes(24).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST,
    PORT: '0',
    DATABASE_URL: db.url,
    DB_POOL_MAX: String(opts.pool),
  });
  // The secrets main.ts reads from DATA_DIR (prepareDataDir), made up for this run.
  const appConfig = { ...config, serviceKey, authSecret: randomBytes(48).toString('base64url') };
  const app = await buildApp({ config: appConfig, pool });
  cleanups.push(() => app.close());
  const baseline = buildBaseline(pool);
  cleanups.push(() => baseline.close());
  const appUrl = await listen(app);
  const baselineUrl = await listen(baseline);

  const pathTemplate = `/api/db/${config.projectId}/rest/v1/jobs?select=*&user_id=eq.{user}&order=created_at.desc&limit=${PAGE}`;
  const path = (user: string) => pathTemplate.replace('{user}', encodeURIComponent(user));
  const checked = await verify({ pool, appUrl, baselineUrl, path, serviceKey, users });
  log(
    `verified: the app sends the baseline's SQL and both answer identical JSON (${PAGE} rows, ${fmt(checked.bytes)} bytes) for ${checked.samples.join(', ')}`,
  );

  const targets = { app: appUrl, baseline: baselineUrl } as const;
  const runLoad = startLoadGenerator();
  const load = (target: 'app' | 'baseline', duration: number) =>
    runLoad({
      url: targets[target],
      connections: opts.connections,
      duration,
      headers: { authorization: `Bearer ${serviceKey}` },
      pathTemplate,
      users,
    });
  for (const target of ['app', 'baseline'] as const) {
    log(`warm-up ${target} ${opts.warmup} s`);
    await load(target, opts.warmup);
  }
  const rounds: Round[] = [];
  const profiles: Partial<Record<'app' | 'baseline', object>> = {};
  for (let round = 1; round <= opts.rounds; round++) {
    const order = round % 2 === 1 ? (['app', 'baseline'] as const) : (['baseline', 'app'] as const);
    for (const target of order) {
      const profiling = opts.profile && round === 1 ? await startProfile() : undefined;
      const elu = performance.eventLoopUtilization();
      const cpu = process.cpuUsage();
      const r = await load(target, opts.duration);
      const busy = performance.eventLoopUtilization(elu);
      const cpuUsed = process.cpuUsage(cpu);
      if (profiling) profiles[target] = await profiling.stop();
      const row: Round = {
        target,
        round,
        reqPerSec: r.requests.average,
        requests: r.requests.total,
        p50: r.latency.p50,
        p90: r.latency.p90,
        p99: r.latency.p99,
        latencyMean: r.latency.average,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        bytesPerSec: r.throughput.average,
        serverCpuUsPerRequest: (cpuUsed.user + cpuUsed.system) / r.requests.total,
        serverUsPerRequest: (busy.active * 1000) / r.requests.total,
        serverElu: busy.utilization,
      };
      rounds.push(row);
      log(
        `round ${round} ${target.padEnd(8)} ${fmt(row.reqPerSec, 1)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  server CPU ${fmt(row.serverCpuUsPerRequest)} us/req, busy ${fmt(row.serverUsPerRequest)} us/req (ELU ${row.serverElu.toFixed(2)})  non-2xx ${row.non2xx}  errors ${row.errors}`,
      );
    }
  }

  const appSummary = summarise(rounds.filter((r) => r.target === 'app'));
  const baselineSummary = summarise(rounds.filter((r) => r.target === 'baseline'));
  const ratio = appSummary.reqPerSec / baselineSummary.reqPerSec;
  const roundRatios = Array.from({ length: opts.rounds }, (_, i) => {
    const pair = rounds.filter((r) => r.round === i + 1);
    return pair.find((r) => r.target === 'app')!.reqPerSec / pair.find((r) => r.target === 'baseline')!.reqPerSec;
  });
  const medianRoundRatio = [...roundRatios].sort((a, b) => a - b)[Math.floor(roundRatios.length / 2)]!;
  const valid = [appSummary, baselineSummary].every((s) => s.non2xx === 0 && s.errors === 0 && s.timeouts === 0);

  const table = [
    ['', 'req/s (mean)', 'req/s min-max', 'p50 ms', 'p99 ms', 'server CPU us/req', 'requests', 'non-2xx', 'errors'],
    ...(
      [
        ['app', appSummary],
        ['baseline', baselineSummary],
      ] as const
    ).map(([name, s]) => [
      name,
      fmt(s.reqPerSec, 1),
      `${fmt(s.reqPerSecMin)}-${fmt(s.reqPerSecMax)}`,
      fmt(s.p50, 1),
      fmt(s.p99, 1),
      fmt(s.serverCpuUsPerRequest),
      fmt(s.requests),
      String(s.non2xx),
      String(s.errors + s.timeouts),
    ]),
  ];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  console.log('');
  for (const row of table)
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  console.log('');
  const cpuRatio = baselineSummary.serverCpuUsPerRequest / appSummary.serverCpuUsPerRequest;
  console.log(
    `server CPU per request: app ${fmt(appSummary.serverCpuUsPerRequest)} us, baseline ${fmt(baselineSummary.serverCpuUsPerRequest)} us ` +
      `(app overhead ${fmt(appSummary.serverCpuUsPerRequest - baselineSummary.serverCpuUsPerRequest)} us/request; CPU ratio baseline/app ${cpuRatio.toFixed(3)})`,
  );
  console.log(
    `ratio app/baseline throughput: ${ratio.toFixed(3)} (per round ${roundRatios.map((r) => r.toFixed(3)).join(', ')}; median ${medianRoundRatio.toFixed(3)}); target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT MET'}`,
  );
  if (!valid) console.log('INVALID RUN: non-2xx answers, errors or timeouts during the measurement');

  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    postgres: serverVersion,
    /** 1-minute load average before and after: other work on the machine skews the numbers. */
    loadAverage: { before: loadBefore, after: loadavg()[0]! },
  };
  const result = {
    benchmark: 'rest',
    date: startedAt.toISOString(),
    command: `npx tsx bench/rest/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine,
    database: db.kind,
    settings: {
      ...opts,
      page: PAGE,
      jobRows,
      loadGenerator: 'autocannon in a child process',
      responseBytes: checked.bytes,
    },
    request: `GET ${pathTemplate} (random user per request, Authorization: Bearer <service key>)`,
    baselineSql: BASELINE_SQL,
    app: appSummary,
    baseline: baselineSummary,
    ratio,
    roundRatios,
    medianRoundRatio,
    cpuRatio,
    target: TARGET_RATIO,
    targetMet: ratio >= TARGET_RATIO,
    valid,
    rounds,
  };
  const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `rest-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  log(
    `machine: ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${machine.postgres}; ` +
      `load average ${machine.loadAverage.before.toFixed(2)} before, ${machine.loadAverage.after.toFixed(2)} after (${machine.cpus} cores)`,
  );
  log(`results written to ${file}`);
  for (const [target, profile] of Object.entries(profiles)) {
    const profileFile = file.replace(/\.json$/, `-${target}.cpuprofile`);
    await writeFile(profileFile, JSON.stringify(profile));
    log(`CPU profile of the servers' thread, round 1 ${target}: ${profileFile}`);
  }
  if (!valid || ratio < TARGET_RATIO) process.exitCode = 1;
}

process.once('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

try {
  await main();
} catch (error) {
  console.error('[bench/rest] failed:', error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
