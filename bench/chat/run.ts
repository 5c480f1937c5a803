/**
 * bench/chat: the grounded chat's time to first token over a large library, side by side with
 * two baselines, in one run on loopback.
 *
 *   npx tsx bench/chat/run.ts [--manuals 10000] [--chunks-per-manual 100] [--questions 300] [--keep] [--database <url>]
 *
 * Seeds PostgreSQL with `manuals` manuals and manuals x chunks-per-manual manual_content rows of
 * generated technical text (library.ts), then asks the real app (buildApp(), logger silent) the
 * questions one at a time through POST /api/app/{project}/chat, on an OpenAI-compatible peer
 * on loopback that answers at once (apps/server/src/test-support/openai-peer.ts). For each
 * question, in turn:
 *   app       ms from sending the request to the first text-delta part of our SSE answer
 *   peer      ms to the first content chunk when the same chat-completions request the app
 *             sent goes to the peer directly (the model's share of the app's figure)
 *   retrieval ms of retrievePassages() alone, the SQL the route runs, same question and role
 * Target: app p95 under 100 ms. Also prints the three slowest retrievals, for EXPLAIN ANALYZE.
 *
 * Database: --database (an already seeded database, reused as it is), else TEST_DATABASE_URL
 * or DATABASE_URL (a fresh fa_bench_chat_<random> database, dropped at the end unless --keep),
 * else the embedded PostgreSQL in a temporary folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { createPool } from '../../apps/server/src/db/pool.js';
import { retrievePassages } from '../../apps/server/src/product/retrieval/retrieve.js';
import { startOpenAiPeer } from '../../apps/server/src/test-support/openai-peer.js';
import { sampleQuestions, seedLibrary } from './library.js';
import { isAppText, isPeerText, summarise, timeFirstText } from './measure.js';

const TARGET_P95_MS = 100;
const HOST = '127.0.0.1';
const { values: args } = parseArgs({
  options: {
    manuals: { type: 'string', default: '10000' },
    'chunks-per-manual': { type: 'string', default: '100' },
    questions: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const opts = {
  manuals: Number(args.manuals),
  chunksPerManual: Number(args['chunks-per-manual']),
  questions: Number(args.questions),
  warmup: Number(args.warmup),
};
const log = (message: string) => console.log(`[bench/chat] ${message}`);
const cleanups: (() => Promise<unknown>)[] = [];

async function openDatabase(): Promise<{ url: string; kind: string; seeded: boolean }> {
  if (args.database)
    return {
      url: args.database,
      kind: `--database ${new URL(args.database).pathname.slice(1)} (reused)`,
      seeded: true,
    };
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `fa_bench_chat_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    await admin.query(`CREATE DATABASE "${name}"`);
    if (!args.keep) cleanups.push(() => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      kind: `${process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : 'DATABASE_URL'} (database ${name})`,
      seeded: false,
    };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-pg-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const embedded = await startEmbeddedPostgres({ dataDir, log });
  cleanups.push(() => embedded.stop());
  return { url: embedded.url, kind: 'embedded PostgreSQL (temporary data dir)', seeded: false };
}

/** Users through the real sign-up, half technicians (who see system planners) and half viewers. */
async function signUpUsers(app: Awaited<ReturnType<typeof buildApp>>, pool: pg.Pool, count: number) {
  const users: { token: string; role: 'technician' | 'viewer' }[] = [];
  const tag = randomBytes(4).toString('hex');
  for (let i = -1; i < count; i++) {
    const email = `bench-${tag}-${i + 1}@example.com`;
    const role = i % 2 === 0 ? 'technician' : 'viewer';
    await pool.query('INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, $3, $4)', [
      `role_${randomBytes(8).toString('hex')}`,
      email,
      role,
      'bench',
    ]);
    // Each from its own address: the per-address sign-up limit is not what this measures.
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: `10.9.${(i + 2) >> 8}.${(i + 2) & 255}`,
      payload: { email, password: 'bench-password-0123', projectId: 'fieldassist' },
    });
    if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
    if (i >= 0) users.push({ token: res.json().access_token as string, role }); // the very first account is made admin: not used
  }
  return users;
}

async function main() {
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const db = await openDatabase();
  log(`database: ${db.kind}`);
  const pool = createPool(db.url, 10);
  cleanups.push(() => pool.end());
  await migrate(pool);
  const postgres = (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
  let seedSeconds = 0;
  if (!db.seeded) {
    const seedStart = performance.now();
    log(`seeding ${opts.manuals} manuals x ${opts.chunksPerManual} chunks`);
    await seedLibrary(pool, { ...opts, log });
    seedSeconds = (performance.now() - seedStart) / 1000;
    log(`seeded in ${seedSeconds.toFixed(0)} s`);
  }
  const {
    rows: [counts],
  } = await pool.query<{ manuals: number; chunks: number }>(
    'SELECT (SELECT count(*) FROM manuals) AS manuals, (SELECT count(*) FROM manual_content) AS chunks',
  );
  log(
    `library: ${counts!.manuals} manuals, ${counts!.chunks} chunks, ${(await pool.query("SELECT pg_size_pretty(pg_total_relation_size('manual_content')) AS s")).rows[0].s}`,
  );

  const peer = await startOpenAiPeer();
  cleanups.push(() => peer.close());
  peer.set({ reply: 'Check the pressure switch first (Service Manual, p. 3), then reset the controller.' });
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-data-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST,
    PORT: '0',
    DATABASE_URL: db.url,
    DB_POOL_MAX: '10',
    DATA_DIR: dataDir,
    AI_BASE_URL: peer.baseUrl,
    AI_API_KEY: 'bench-key',
    AI_MODEL: 'bench-model',
  });
  const app = await buildApp({
    config: {
      ...config,
      serviceKey: `blnk_sk_bench_${randomBytes(24).toString('hex')}`,
      authSecret: randomBytes(48).toString('base64url'),
    },
    pool,
  });
  cleanups.push(() => app.close());
  await app.listen({ port: 0, host: HOST });
  const address = app.server.address();
  const chatUrl = `http://${HOST}:${typeof address === 'object' && address ? address.port : 0}/api/app/${config.projectId}/chat`;
  // The chat allows 20 questions a minute per user: enough users that none is refused.
  const users = await signUpUsers(app, pool, Math.ceil((opts.questions + opts.warmup) / 10));
  const questions = await sampleQuestions(pool, opts.questions + opts.warmup);
  log(`${users.length} users, ${questions.length} questions, e.g. "${questions[opts.warmup + 4]}"`);

  const samples: { question: string; role: string; app: number; appTotal: number; peer: number; retrieval: number }[] =
    [];
  for (const [i, question] of questions.entries()) {
    const user = users[i % users.length]!;
    const timedApp = await timeFirstText(chatUrl, { authorization: `Bearer ${user.token}` }, { question }, isAppText);
    const sent = peer.chatRequests().at(-1)!;
    const timedPeer = await timeFirstText(`${peer.baseUrl}/chat/completions`, {}, sent, isPeerText);
    const sqlStart = performance.now();
    await retrievePassages({ pool }, { question, role: user.role });
    const retrieval = performance.now() - sqlStart;
    if (i >= opts.warmup)
      samples.push({
        question,
        role: user.role,
        app: timedApp.firstTextMs,
        appTotal: timedApp.totalMs,
        peer: timedPeer.firstTextMs,
        retrieval,
      });
    if ((i + 1) % 50 === 0) log(`  ${i + 1} of ${questions.length} questions`);
  }

  const app_ = summarise(samples.map((s) => s.app));
  const peer_ = summarise(samples.map((s) => s.peer));
  const sql_ = summarise(samples.map((s) => s.retrieval));
  const total_ = summarise(samples.map((s) => s.appTotal));
  console.log('');
  console.log('ms                          p50     p95     p99     max    mean');
  for (const [name, s] of [
    ['app: time to first token', app_],
    ['baseline: peer directly', peer_],
    ['baseline: retrieval SQL', sql_],
    ['app: whole answer', total_],
  ] as const) {
    console.log(
      `${name.padEnd(26)} ${[s.p50, s.p95, s.p99, s.max, s.mean].map((n) => n.toFixed(1).padStart(7)).join(' ')}`,
    );
  }
  const met = app_.p95 < TARGET_P95_MS;
  console.log(
    `\napp / peer-directly p50 ${(app_.p50 / peer_.p50).toFixed(1)}x, p95 ${(app_.p95 / peer_.p95).toFixed(1)}x; target app p95 < ${TARGET_P95_MS} ms: ${met ? 'met' : 'NOT MET'}`,
  );

  const slowest = [...samples].sort((a, b) => b.retrieval - a.retrieval).slice(0, 3);
  console.log('\nslowest retrievals:');
  for (const s of slowest) console.log(`  ${s.retrieval.toFixed(1)} ms (${s.role}): ${s.question}`);

  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres,
    loadAverage: { before: loadBefore, after: loadavg()[0]! },
  };
  const result = {
    benchmark: 'chat',
    date: startedAt.toISOString(),
    command: `npx tsx bench/chat/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine,
    database: db.kind,
    settings: { ...opts, users: users.length, seedSeconds, library: counts },
    app: app_,
    peerDirect: peer_,
    retrieval: sql_,
    appWholeAnswer: total_,
    target: TARGET_P95_MS,
    targetMet: met,
    slowest,
    samples,
  };
  const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `chat-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  log(
    `machine: ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${postgres}; load average ${loadBefore.toFixed(2)} before, ${machine.loadAverage.after.toFixed(2)} after`,
  );
  log(`whole run ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; results written to ${file}`);
  if (args.keep && !args.database) log(`kept the database: --database ${db.url}`);
  if (!met) process.exitCode = 1;
}

process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
async function cleanup() {
  for (const step of cleanups.splice(0).reverse())
    await step().catch((error: unknown) => console.error('[bench/chat] cleanup failed:', error));
}
try {
  await main();
} catch (error) {
  console.error('[bench/chat] failed:', error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
