/**
 * bench/retrieval: how well the chat finds the page that answers a technician's question, on
 * real manuals, and whether it says so when none does.
 *
 *   npx tsx bench/retrieval/run.ts [--split tuned|heldout|all] [--manual avrdude ...] [--keep-db <name>] [--reingest] [--scanned]
 *
 * With --scanned, each manual is uploaded as a scanned copy (scan-copy.ts: its pages as images,
 * no text layer), so the server reads it by OCR (issue 17).
 *
 * Starts the real server (buildApp, as main.ts builds it, with no AI model: the server answers
 * by itself), signs up an admin, uploads each manual of manuals.ts as the web app does (storage
 * upload, then the manuals row) so the server's ingestion worker reads it, waits until every
 * manual is ready, then asks every question of questions.json through POST /api/app/{project}/chat
 * and scores the `data-sources` part and the answer text (score.ts). Prints the figures per
 * manual and in all, tuned and held-out apart; writes every question's result to
 * bench/results/retrieval-<time>.json.
 *
 * Database: with --keep-db <name>, the database <name> on TEST_DATABASE_URL or DATABASE_URL (else
 * the local postgres://postgres@127.0.0.1:5432), created when missing and kept, with its files in
 * bench/retrieval/.cache/data-<name>: a manual already ready there is not ingested again (unless
 * --reingest). Without it, a fresh database dropped at the end (bench/tools/database.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { createPool } from '../../apps/server/src/db/pool.js';
import { type Cleanups, openBenchDatabase } from '../tools/database.js';
import { CACHE_DIR, fetchManuals } from './manuals.js';
import { scanCopy } from './scan-copy.js';
import { type Asked, type Question, formatTable, scoreQuestion, summarise } from './score.js';

const HOST = '127.0.0.1';
/** The chat allows 20 questions a minute per user (routes.ts): each bench user asks at most this many in a run. */
const QUESTIONS_PER_USER = 15;

const { values: args } = parseArgs({
  options: {
    split: { type: 'string', default: 'all' },
    manual: { type: 'string', multiple: true },
    'keep-db': { type: 'string' },
    reingest: { type: 'boolean', default: false },
    scanned: { type: 'boolean', default: false },
  },
});
if (!['tuned', 'heldout', 'all'].includes(args.split)) throw new Error('--split must be tuned, heldout or all');
if (args['keep-db'] !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(args['keep-db']))
  throw new Error('--keep-db takes a database name: lower-case letters, digits and _');

const log = (message: string) => console.log(`[bench/retrieval] ${message}`);
const cleanups: Cleanups = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => (performance.now() - since) / 1000;

/** The kept database (created when missing) and its files folder, or a fresh one of each. */
async function openDatabase(): Promise<{ url: string; kind: string; dataDir: string }> {
  const name = args['keep-db'];
  if (!name) {
    const db = await openBenchDatabase(cleanups, log);
    const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-retrieval-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return { ...db, dataDir };
  }
  const serverUrl =
    process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || `postgres://postgres@${HOST}:5432/postgres`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = join(CACHE_DIR, `data-${name}`);
  await mkdir(dataDir, { recursive: true });
  return { url: url.toString(), kind: `--keep-db ${name} (${rowCount ? 'reused' : 'created'}, kept)`, dataDir };
}

async function startServer(databaseUrl: string, dataDir: string) {
  const pool = createPool(databaseUrl, 10);
  cleanups.push(() => pool.end());
  await migrate(pool);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST,
    PORT: '0',
    DATABASE_URL: databaseUrl,
    DB_POOL_MAX: '10',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
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
  if (typeof address !== 'object' || !address) throw new Error('the server has no address');
  const postgres = (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
  return { pool, projectId: config.projectId, url: `http://${HOST}:${address.port}`, postgres };
}
type Server = Awaited<ReturnType<typeof startServer>>;

async function call<T>(server: Server, path: string, init: RequestInit & { token: string }): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${init.token}`, ...init.headers },
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return (body ? JSON.parse(body) : null) as T;
}

/** Accounts through the real sign-up, invited first (user_roles) as an admin would: one admin, then technicians. */
async function signUp(server: Server, count: number): Promise<{ admin: string; technicians: string[] }> {
  const tag = randomBytes(4).toString('hex');
  const tokens: string[] = [];
  for (let i = 0; i <= count; i++) {
    const email = `bench-retrieval-${tag}-${i}@example.com`;
    await server.pool.query('INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, $3, $4)', [
      `role_${randomBytes(8).toString('hex')}`,
      email,
      i === 0 ? 'admin' : 'technician',
      'bench',
    ]);
    const res = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password-0123', projectId: server.projectId }),
    });
    if (!res.ok) throw new Error(`sign-up failed: HTTP ${res.status} ${await res.text()}`);
    tokens.push(((await res.json()) as { access_token: string }).access_token);
  }
  return { admin: tokens[0]!, technicians: tokens.slice(1) };
}

/** The upload of apps/web's use-manual-upload: the file into storage under manuals/, then the manuals row. */
async function uploadManual(server: Server, token: string, manual: { name: string; title: string; path: string }) {
  const bytes = args.scanned ? await scanCopy(await readFile(manual.path), log) : await readFile(manual.path);
  const fileName = `${manual.name}.pdf`;
  const form = new FormData();
  form.append('path', `manuals/${Date.now()}_${fileName}`);
  form.append('options', JSON.stringify({ upsert: true }));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), fileName);
  const stored = await call<{ publicUrl: string }>(server, `/api/storage/${server.projectId}/upload`, {
    method: 'POST',
    body: form,
    token,
  });
  const id = `manual_${randomBytes(16).toString('hex')}`;
  await call(server, `/api/db/${server.projectId}/rest/v1/manuals`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id,
      title: manual.title,
      file_url: stored.publicUrl,
      file_name: fileName,
      file_size: bytes.length,
      file_type: 'application/pdf',
      document_type: 'manual',
    }),
  });
  return id;
}

/** Every chosen manual ready in the library; the ones already there are kept unless --reingest. */
async function ingest(server: Server, token: string, manuals: Awaited<ReturnType<typeof fetchManuals>>) {
  const { rows: present } = await server.pool.query<{ id: string; file_name: string; processing_status: string }>(
    'SELECT id, file_name, processing_status FROM manuals',
  );
  const ingested: { name: string; id: string; pages: number; chunks: number; seconds: number | null }[] = [];
  for (const manual of manuals) {
    const existing = present.filter((row) => row.file_name === `${manual.name}.pdf`);
    const ready = existing.find((row) => row.processing_status === 'ready');
    if (ready && !args.reingest) {
      ingested.push({ name: manual.name, id: ready.id, pages: manual.pages, chunks: 0, seconds: null });
      continue;
    }
    for (const row of existing)
      await call(server, `/api/db/${server.projectId}/rest/v1/manuals?id=eq.${row.id}`, { method: 'DELETE', token });
    const started = performance.now();
    const id = await uploadManual(server, token, manual);
    for (;;) {
      const { rows } = await server.pool.query<{ processing_status: string; processing_error: string | null }>(
        'SELECT processing_status, processing_error FROM manuals WHERE id = $1',
        [id],
      );
      if (rows[0]?.processing_status === 'failed')
        throw new Error(`${manual.name}: ingestion failed: ${rows[0].processing_error}`);
      if (rows[0]?.processing_status === 'ready') break;
      if (seconds(started) > 900) throw new Error(`${manual.name}: not ready after 900 s`);
      await sleep(200);
    }
    ingested.push({ name: manual.name, id, pages: manual.pages, chunks: 0, seconds: seconds(started) });
    log(`${manual.name}: ${manual.pages} pages ingested in ${seconds(started).toFixed(1)} s`);
  }
  for (const m of ingested)
    m.chunks = (
      await server.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM manual_content WHERE manual_id = $1', [
        m.id,
      ])
    ).rows[0]!.n;
  return ingested;
}

/** Waits until the server's background indexer has embedded every chunk (semantic reranking needs them); seconds waited. */
async function waitForEmbeddings(server: Server): Promise<number> {
  const started = performance.now();
  let reported = 0;
  for (;;) {
    const { rows } = await server.pool.query<{ left: number; total: number }>(
      'SELECT count(*) FILTER (WHERE embedding IS NULL)::int AS left, count(*)::int AS total FROM manual_content',
    );
    if (rows[0]!.left === 0) break;
    if (seconds(started) - reported >= 15) {
      reported = seconds(started);
      log(`embedding: ${rows[0]!.total - rows[0]!.left} of ${rows[0]!.total} chunks`);
    }
    if (seconds(started) > 3600) throw new Error('chunks still without embeddings after 3600 s');
    await sleep(500);
  }
  const waited = seconds(started);
  if (waited > 1) log(`embeddings complete after ${waited.toFixed(0)} s more`);
  return waited;
}

/** One question through the chat endpoint: its sources, its text, and when the first byte and the first text came. */
async function ask(server: Server, token: string, question: string) {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/app/${server.projectId}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question }),
  });
  if (res.status !== 200) throw new Error(`chat: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  let firstByteMs: number | undefined;
  let firstTextMs: number | undefined;
  let sources: { manualId: string; title: string; page: number | null }[] = [];
  let text = '';
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    firstByteMs ??= performance.now() - started;
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('data: {')) continue;
      const part = JSON.parse(line.slice(6)) as { type: string; data?: unknown; delta?: string; errorText?: string };
      if (part.type === 'data-sources') sources = part.data as typeof sources;
      if (part.type === 'text-delta') {
        firstTextMs ??= performance.now() - started;
        text += part.delta ?? '';
      }
      if (part.type === 'error') throw new Error(`chat stream error: ${part.errorText}`);
    }
  }
  return { sources, text, firstByteMs: firstByteMs ?? NaN, firstTextMs: firstTextMs ?? NaN };
}

async function main() {
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const all = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as {
    questions: Question[];
  };
  const manuals = await fetchManuals(args.manual, log);
  const names = new Set(manuals.map((m) => m.name));
  const questions = all.questions.filter(
    (q) => (args.split === 'all' || q.split === args.split) && (q.manual === null || names.has(q.manual)),
  );

  const db = await openDatabase();
  log(`database: ${db.kind}`);
  const server = await startServer(db.url, db.dataDir);
  const users = await signUp(server, Math.ceil(questions.length / QUESTIONS_PER_USER));
  const ingestStarted = performance.now();
  const ingested = await ingest(server, users.admin, manuals);
  const ingestSeconds = seconds(ingestStarted);
  const embedSeconds = await waitForEmbeddings(server);
  // Sessions expire after a while: the technicians who ask sign up once the library is ready.
  const technicians =
    embedSeconds > 60 ? (await signUp(server, users.technicians.length)).technicians : users.technicians;
  const nameOf = new Map(ingested.map((m) => [m.id, m.name]));
  log(
    `library: ${ingested.map((m) => `${m.name} (${m.pages} pages, ${m.chunks} chunks${m.seconds === null ? ', already ingested' : ''})`).join(', ')}; ${ingestSeconds.toFixed(0)} s`,
  );

  const askStarted = performance.now();
  const results: Asked[] = [];
  for (const [i, q] of questions.entries()) {
    // Each question of the set stands alone: with the earlier exchanges gone, none is taken for a
    // follow-up of the question asked before it (the chat reads the last 15 minutes' exchanges).
    await server.pool.query('DELETE FROM chat_messages');
    const answer = await ask(server, technicians[i % technicians.length]!, q.question);
    const sources = answer.sources.map((s) => ({
      manual: nameOf.get(s.manualId) ?? s.manualId,
      title: s.title,
      page: s.page,
    }));
    results.push(scoreQuestion(q, { ...answer, sources }));
    if ((i + 1) % 50 === 0) log(`  ${i + 1} of ${questions.length} questions`);
  }
  const askSeconds = seconds(askStarted);

  const groups = ['tuned', 'heldout'].filter((split) => results.some((r) => r.split === split));
  const summary = Object.fromEntries(
    groups.map((split) => [
      split,
      summarise(
        results.filter((r) => r.split === split),
        [...names],
      ),
    ]),
  );
  for (const split of groups) {
    console.log(`\n${split === 'tuned' ? 'Tuned' : 'Held-out'} questions`);
    console.log(formatTable(summary[split]!));
  }
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres: server.postgres,
    loadAverage: { before: loadBefore, after: loadavg()[0]! },
  };
  const result = {
    benchmark: 'retrieval',
    date: startedAt.toISOString(),
    command: `npx tsx bench/retrieval/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine,
    database: db.kind,
    ingestSeconds,
    embedSeconds,
    askSeconds,
    manuals: ingested,
    summary,
    questions: results,
  };
  const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `retrieval-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log('');
  log(
    `${questions.length} questions in ${askSeconds.toFixed(0)} s; ingestion ${ingestSeconds.toFixed(0)} s; whole run ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`,
  );
  log(
    `machine: ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${machine.postgres}; load average ${loadBefore.toFixed(2)} before, ${machine.loadAverage.after.toFixed(2)} after`,
  );
  log(`results: ${basename(file)} in bench/results/`);
}

process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
async function cleanup() {
  for (const step of cleanups.splice(0).reverse())
    await step().catch((error: unknown) => console.error('[bench/retrieval] cleanup failed:', error));
}
try {
  await main();
} catch (error) {
  console.error('[bench/retrieval] failed:', error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
