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
 * and scores the `data-sources` part and the answer text (score.ts). The retrieval's ranking itself
 * (retrievePassages for the same question and role, its first five distinct pages) is scored beside
 * it, because the chat without a model shows at most three pages. Prints the figures per
 * manual and in all, tuned and held-out apart; writes every question's result to
 * bench/results/retrieval-<time>.json.
 *
 * Database: with --keep-db <name>, the database <name> on TEST_DATABASE_URL or DATABASE_URL (else
 * the local postgres://postgres@127.0.0.1:5432), created when missing and kept, with its files in
 * bench/retrieval/.cache/data-<name>: a manual already ready there is not ingested again (unless
 * --reingest). Without it, a fresh database dropped at the end (bench/tools/database.ts).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createEmbedder } from '../../apps/server/src/product/retrieval/embedder.js';
import { retrievePassages } from '../../apps/server/src/product/retrieval/retrieve.js';
import { type Cleanups, openBenchDatabase } from '../tools/database.js';
import { CACHE_DIR, fetchManuals } from './manuals.js';
import { ask, ingest, signUp, startServer, waitForEmbeddings } from './server.js';
import { type Asked, type Question, formatTable, scoreQuestion, summarise } from './score.js';

const HOST = '127.0.0.1';
/** The chat allows 20 questions a minute per user (routes.ts): each bench user asks at most this many in a run. */
const QUESTIONS_PER_USER = 15;
/** Passages of the ranking read to find its first five distinct pages. */
const RANKED_PASSAGES = 60;

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
  const server = await startServer(db.url, db.dataDir, cleanups);
  const { admin } = await signUp(server, []);
  const ingestStarted = performance.now();
  const ingested = await ingest(server, admin, manuals, { reingest: args.reingest, scanned: args.scanned, log });
  const ingestSeconds = seconds(ingestStarted);
  const embedSeconds = await waitForEmbeddings(server, log);
  const nameOf = new Map(ingested.map((m) => [m.id, m.name]));
  // The ranking is read with an embedder of its own (the same model as the server's), after each chat answer.
  const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
  cleanups.push(() => embedder.close());
  // Signed up once the library is ready: waiting for the embeddings can outlast a session.
  const { users } = await signUp(
    server,
    Array.from({ length: Math.ceil(questions.length / QUESTIONS_PER_USER) }, () => 'technician' as const),
  );
  log(
    `library: ${ingested.map((m) => `${m.name} (${m.pages} pages, ${m.chunks} chunks${m.seconds === null ? ', already ingested' : ''})`).join(', ')}; ${ingestSeconds.toFixed(0)} s`,
  );

  const askStarted = performance.now();
  const results: Asked[] = [];
  for (const [i, q] of questions.entries()) {
    // Each question of the set stands alone: with the earlier exchanges gone, none is taken for a
    // follow-up of the question asked before it (the chat reads the last 15 minutes' exchanges).
    await server.pool.query('DELETE FROM chat_messages');
    const answer = await ask(server, users[i % users.length]!.token, q.question);
    const sources = answer.sources.map((s) => ({
      manual: nameOf.get(s.manualId) ?? s.manualId,
      title: s.title,
      page: s.page,
    }));
    const retrieval = await retrievePassages(
      { pool: server.pool, embedder },
      { question: q.question, role: 'technician', limit: RANKED_PASSAGES },
    );
    const ranked = [
      ...new Map(
        retrieval.passages.map((p) => [`${p.manualId}:${p.page}`, { manual: nameOf.get(p.manualId)!, page: p.page }]),
      ).values(),
    ].slice(0, 5);
    results.push(scoreQuestion(q, { ...answer, sources, ranked }));
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
