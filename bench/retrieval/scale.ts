/**
 * bench/retrieval/scale.ts: does retrieval quality hold, and does the chat still answer fast, when
 * the set's real manuals sit in bench/chat's library of a million generated chunks? (issue 15)
 *
 *   npx tsx bench/retrieval/scale.ts [--chunks 1000000] [--questions 300] [--keep]
 *
 * 1. The small library: the three real manuals of manuals.ts ingested through the real path (upload,
 *    the server's ingestion worker) and embedded by the server's indexer, alone in a database.
 * 2. The large library: a copy of that database (CREATE DATABASE ... TEMPLATE) into which
 *    bench/chat's generated chunks are seeded (library.ts; marked never to embed), after which the
 *    real chunks are rewritten once so they sit after the generated ones in the table, as a manual
 *    added to a grown library does (a scan in table order reaches them last).
 * 3. On each library, the real server with an AI model (bench/chat's OpenAI-compatible peer, which
 *    answers at once) is asked the TUNED questions of questions.json through POST /api/app/{project}/chat:
 *    hit@1, hit@5 and MRR@5 on the `data-sources` part (the pages of the passages given to the
 *    model), abstention, and ms to the first text. On the large one, then, bench/chat's generated
 *    questions (half technicians, half viewers): ms to the first text, the peer asked directly, and
 *    retrievePassages() alone (SQL, no question embedding).
 *
 * With --keep, the databases fa_scale_small and fa_scale_large are kept and reused by the next
 * run (seeding takes minutes, embedding the manuals about ten); without it, fresh ones are
 * dropped at the end. The held-out questions are never asked.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPool } from '../../apps/server/src/db/pool.js';
import { retrievePassages } from '../../apps/server/src/product/retrieval/retrieve.js';
import { startOpenAiPeer } from '../../apps/server/src/test-support/openai-peer.js';
import { sampleQuestions, seedLibrary } from '../chat/library.js';
import { isAppText, isPeerText, summarise as timings, timeFirstText } from '../chat/measure.js';
import type { Cleanups } from '../tools/database.js';
import { fetchManuals } from './manuals.js';
import { type Asked, type Question, formatTable, scoreQuestion, summarise } from './score.js';
import { ask, ingest, type Server, signUp, startServer, waitForEmbeddings } from './server.js';

const { values: args } = parseArgs({
  options: {
    chunks: { type: 'string', default: '1000000' },
    questions: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
const CHUNKS_PER_MANUAL = 100;
/** The chat allows 30 AI questions a minute per user: each bench user asks at most this many. */
const QUESTIONS_PER_USER = 15;
const TARGET_P95_MS = 100;
const log = (message: string) => console.log(`[bench/scale] ${message}`);
const cleanups: Cleanups = [];
const seconds = (since: number) => (performance.now() - since) / 1000;
const serverUrl =
  process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const urlOf = (name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();

async function main() {
  const startedAt = new Date();
  const load = [loadavg()[0]!];
  const { questions: all } = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as {
    questions: Question[];
  };
  const questions = all.filter((q) => q.split === 'tuned');
  const manuals = await fetchManuals(undefined, log);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  cleanups.push(() => admin.end());
  const exists = async (name: string) =>
    Boolean((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount);
  const tag = args.keep ? '' : `_${randomBytes(4).toString('hex')}`;
  const small = `fa_scale_small${tag}`;
  const large = `fa_scale_large${tag}`;
  if (!args.keep)
    cleanups.push(async () => {
      for (const name of [small, large]) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-scale-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const peer = await startOpenAiPeer();
  cleanups.push(() => peer.close());
  peer.set({ reply: 'Check the pressure switch first (Service Manual, p. 3), then reset the controller.' });

  /** The server on one database, for as long as `work` runs. */
  const withServer = async <T>(name: string, work: (server: Server) => Promise<T>): Promise<T> => {
    const own: Cleanups = [];
    try {
      return await work(await startServer(urlOf(name), dataDir, own, { aiBaseUrl: peer.baseUrl }));
    } finally {
      for (const step of own.reverse()) await step();
    }
  };
  const askTuned = (server: Server) => askAll(server, questions);

  // 1. The small library, and its figures.
  if (!(await exists(small))) await admin.query(`CREATE DATABASE "${small}"`);
  const smallRun = await withServer(small, async (server) => {
    const { admin: token } = await signUp(server, []);
    const ingested = await ingest(server, token, manuals, { reingest: false, scanned: false, log });
    await waitForEmbeddings(server, log);
    return { ingested, ...(await askTuned(server)) };
  });
  load.push(loadavg()[0]!);

  // 2. The large library: the small one copied, the generated chunks seeded into it.
  let seedSeconds = 0;
  if (!(await exists(large))) {
    await admin.query(`CREATE DATABASE "${large}" TEMPLATE "${small}"`);
    const seedStart = performance.now();
    // Without a server: its ingestion worker would try the generated manuals, which have no file.
    const pool = createPool(urlOf(large), 4);
    try {
      log(`seeding ${args.chunks} generated chunks`);
      await seedLibrary(pool, {
        manuals: Math.ceil(Number(args.chunks) / CHUNKS_PER_MANUAL),
        chunksPerManual: CHUNKS_PER_MANUAL,
        log,
      });
      // The real chunks rewritten after the generated ones (their text and embeddings unchanged).
      await pool.query("UPDATE manual_content SET chunk_index = chunk_index WHERE embedding <> '\\x'");
      await pool.query('VACUUM ANALYZE manual_content');
    } finally {
      await pool.end();
    }
    seedSeconds = seconds(seedStart);
    log(`seeded in ${seedSeconds.toFixed(0)} s`);
  }

  // 3. The large library's figures: the tuned questions, then bench/chat's generated questions.
  const largeRun = await withServer(large, async (server) => {
    const { rows } = await server.pool.query<{ chunks: number; size: string }>(
      "SELECT count(*)::int AS chunks, pg_size_pretty(pg_total_relation_size('manual_content')) AS size FROM manual_content",
    );
    log(`large library: ${rows[0]!.chunks} chunks, ${rows[0]!.size}`);
    const tuned = await askTuned(server);
    load.push(loadavg()[0]!);
    const generated = await askGenerated(server, peer);
    return { library: rows[0]!, ...tuned, generated };
  });
  load.push(loadavg()[0]!);

  const hits = (results: Asked[]) => summarise(results, [...new Set(manuals.map((m) => m.name))]).at(-1)!;
  const smallRow = { ...hits(smallRun.results), group: 'small library' };
  const largeRow = { ...hits(largeRun.results), group: `+ ${largeRun.library.chunks} chunks` };
  console.log('\nTuned questions (pages of the passages given to the model)');
  console.log(formatTable([smallRow, largeRow]));
  const drop = smallRow.hitAt5 - largeRow.hitAt5;
  console.log(
    `hit@5 ${smallRow.hitAt5.toFixed(3)} -> ${largeRow.hitAt5.toFixed(3)}: ${drop <= 0.02 ? 'within' : 'NOT within'} 0.02`,
  );
  console.log('\nms                                    p50     p95     p99     max');
  const line = (name: string, s: ReturnType<typeof timings>) =>
    console.log(`${name.padEnd(34)} ${[s.p50, s.p95, s.p99, s.max].map((n) => n.toFixed(1).padStart(7)).join(' ')}`);
  line('tuned, small: first text', smallRun.firstText);
  line('tuned, large: first text', largeRun.firstText);
  line('generated, large: first text', largeRun.generated.app);
  line('generated: peer directly', largeRun.generated.peer);
  line('generated: retrieval SQL alone', largeRun.generated.retrieval);
  const met = largeRun.firstText.p95 < TARGET_P95_MS && largeRun.generated.app.p95 < TARGET_P95_MS;
  console.log(`target first-text p95 < ${TARGET_P95_MS} ms on the large library: ${met ? 'met' : 'NOT MET'}`);
  console.log(`load average (1 min): ${load.map((l) => l.toFixed(1)).join(' -> ')} on ${cpus().length} cores`);

  const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `scale-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(
    file,
    `${JSON.stringify(
      {
        benchmark: 'retrieval-scale',
        date: startedAt.toISOString(),
        command: `npx tsx bench/retrieval/scale.ts ${process.argv.slice(2).join(' ')}`.trim(),
        loadAverage: load,
        seedSeconds,
        small: { summary: smallRow, firstText: smallRun.firstText, questions: smallRun.results },
        large: {
          library: largeRun.library,
          summary: largeRow,
          firstText: largeRun.firstText,
          questions: largeRun.results,
          generated: largeRun.generated,
        },
      },
      null,
      2,
    )}\n`,
  );
  log(`whole run ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; results: ${file}`);
  if (args.keep) log(`kept: ${small}, ${large}`);
}

/** The questions through the chat, each standing alone (no earlier exchange to follow up). */
async function askAll(server: Server, questions: Question[]) {
  const { users } = await signUp(
    server,
    Array.from({ length: Math.ceil(questions.length / QUESTIONS_PER_USER) }, () => 'technician' as const),
  );
  const { rows: manuals } = await server.pool.query<{ id: string; file_name: string }>(
    "SELECT id, file_name FROM manuals WHERE file_url NOT LIKE 'http://127.0.0.1/files/%'",
  );
  const nameOf = new Map(manuals.map((m) => [m.id, m.file_name.replace(/\.pdf$/, '')]));
  const results: Asked[] = [];
  for (const [i, q] of questions.entries()) {
    await server.pool.query('DELETE FROM chat_messages');
    const answer = await ask(server, users[i % users.length]!.token, q.question);
    const sources = answer.sources.map((s) => ({
      manual: nameOf.get(s.manualId) ?? s.manualId,
      title: s.title,
      page: s.page,
    }));
    // With a model the chat lists its passages' pages in ranking order: the sources are the ranking.
    results.push(scoreQuestion(q, { ...answer, sources, ranked: sources }));
  }
  return { results, firstText: timings(results.map((r) => r.firstTextMs)) };
}

/** bench/chat's generated questions, as bench/chat asks them: the app, the peer directly, the retrieval alone. */
async function askGenerated(server: Server, peer: Awaited<ReturnType<typeof startOpenAiPeer>>) {
  const warmup = Number(args.warmup);
  const questions = await sampleQuestions(server.pool, Number(args.questions) + warmup);
  const { users } = await signUp(
    server,
    Array.from({ length: Math.ceil(questions.length / QUESTIONS_PER_USER) }, (_, i) =>
      i % 2 ? 'viewer' : 'technician',
    ),
  );
  const chatUrl = `${server.url}/api/app/${server.projectId}/chat`;
  const samples: { question: string; role: string; app: number; peer: number; retrieval: number }[] = [];
  for (const [i, question] of questions.entries()) {
    const user = users[i % users.length]!;
    await server.pool.query('DELETE FROM chat_messages');
    const app = await timeFirstText(chatUrl, { authorization: `Bearer ${user.token}` }, { question }, isAppText);
    const peerAnswer = await timeFirstText(
      `${peer.baseUrl}/chat/completions`,
      {},
      peer.chatRequests().at(-1)!,
      isPeerText,
    );
    const started = performance.now();
    await retrievePassages({ pool: server.pool }, { question, role: user.role });
    const retrieval = performance.now() - started;
    if (i >= warmup)
      samples.push({ question, role: user.role, app: app.firstTextMs, peer: peerAnswer.firstTextMs, retrieval });
  }
  return {
    app: timings(samples.map((s) => s.app)),
    peer: timings(samples.map((s) => s.peer)),
    retrieval: timings(samples.map((s) => s.retrieval)),
    slowest: [...samples].sort((a, b) => b.app - a.app).slice(0, 5),
  };
}

process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
async function cleanup() {
  for (const step of cleanups.splice(0).reverse())
    await step().catch((error: unknown) => console.error('[bench/scale] cleanup failed:', error));
}
try {
  await main();
} catch (error) {
  console.error('[bench/scale] failed:', error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
