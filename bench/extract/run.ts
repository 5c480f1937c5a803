/**
 * bench/extract: document extraction speed, and what manual ingestion does to the API's latency.
 *
 *   npx tsx bench/extract/run.ts [--runs 3] [--pages 1000] [--window 10] [--rounds 3] [--rate 200] [--connections 10]
 *                                [--embeddings on|off] [--latency-only]
 *
 * 1. Pages per second of our extractor (createExtractor: the worker-thread pool production uses,
 *    with its default limits except a longer time limit) against poppler's `pdftotext`, on the
 *    GNU Octave manual (the largest PDF of Debian's octave-doc package, fetched with apt-get
 *    download into a cache folder; poppler-utils is installed with apt-get when missing). One
 *    warm-up each, then `--runs` alternating runs; medians. Target: ours >= 0.5 of pdftotext.
 * 2. p99 latency of a small REST GET (service key; autocannon in a child process at a fixed
 *    rate) while the server ingests a `--pages`-page PDF, against the same request when idle.
 *    Each round: an idle window, then a window from saving the manual row until it is 'ready'.
 *    Target: p99 while ingesting <= 2x idle. With `--embeddings on` (the default, as production
 *    runs), each round then has an `embedding` window, from 'ready' until the background indexer
 *    has embedded every chunk, with the same target; and the manual's time until every chunk is
 *    embedded against its time until 'ready' (the ingestion without embeddings). Target: <= 3x.
 *    `--latency-only` skips part 1.
 * Loopback only. Results go to stdout and bench/results/extract-<timestamp>.json. Exit code 1:
 * an invalid run (non-2xx, errors, a failed ingestion) or a missed target.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createExtractor, defaultExtractLimits } from '../../apps/server/src/data/extract.js';
import type { LatencySummary, LoadMessage } from './load.js';
import {
  type BenchServer,
  type Cleanups,
  makeDenseManual,
  openDatabase,
  startServer,
} from './server-under-ingestion.js';
import { ensurePoppler, octaveManualPdf, pdfPageCount, timePdftotext } from './tools.js';

const TARGET_SPEED_RATIO = 0.5;
const TARGET_P99_RATIO = 2;
const TARGET_EMBEDDED_RATIO = 3;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: '1000' },
    window: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '10' },
    embeddings: { type: 'string', default: 'on' },
    'latency-only': { type: 'boolean', default: false },
  },
});
const { embeddings: embeddingsArg, 'latency-only': latencyOnly, ...numeric } = args;
if (embeddingsArg !== 'on' && embeddingsArg !== 'off') throw new Error('--embeddings must be on or off');
const embeddings = embeddingsArg === 'on';
const opts = Object.fromEntries(
  Object.entries(numeric).map(([name, value]) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
    return [name, n];
  }),
) as Record<keyof typeof numeric, number>;

const log = (message: string) => console.log(`[bench/extract] ${message}`);
const cleanups: Cleanups = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- 1. extraction speed

async function measureExtraction() {
  const pdf = await octaveManualPdf(log);
  const poppler = await ensurePoppler(log);
  const pages = await pdfPageCount(pdf.path);
  const bytes = await readFile(pdf.path);
  log(`${pdf.path}: ${(bytes.length / 2 ** 20).toFixed(1)} MB, ${pages} pages (${pdf.deb}); ${poppler}`);
  // Production's limits, but a 60 s time limit must not end a measurement on a slow machine.
  const extractor = createExtractor({ ...defaultExtractLimits, timeoutMs: 600_000 });
  cleanups.push(() => extractor.close());
  const ours = async () => {
    const started = performance.now();
    const document = await extractor.extractDocument({ bytes, fileName: 'octave.pdf', contentType: 'application/pdf' });
    return {
      seconds: (performance.now() - started) / 1000,
      characters: document.pages.reduce((a, p) => a + p.text.length, 0),
      textPages: document.pages.length,
    };
  };
  log('warm-up: one run of each');
  const warm = await ours();
  await timePdftotext(pdf.path);
  const runs: { ours: number; pdftotext: number }[] = [];
  for (let run = 1; run <= opts.runs; run++) {
    const a = (await ours()).seconds;
    const b = (await timePdftotext(pdf.path)).seconds;
    runs.push({ ours: a, pdftotext: b });
    log(
      `run ${run}: ours ${a.toFixed(2)} s (${(pages / a).toFixed(0)} pages/s), pdftotext ${b.toFixed(2)} s (${(pages / b).toFixed(0)} pages/s)`,
    );
  }
  const oursPps = pages / median(runs.map((r) => r.ours));
  const popplerPps = pages / median(runs.map((r) => r.pdftotext));
  const pdftotextChars = (await timePdftotext(pdf.path)).characters;
  return {
    file: pdf.path,
    deb: pdf.deb,
    poppler,
    pages,
    bytes: bytes.length,
    textPages: warm.textPages,
    ourCharacters: warm.characters,
    pdftotextChars,
    runs,
    oursPps,
    popplerPps,
    ratio: oursPps / popplerPps,
  };
}

// ---------------------------------------------------------------- 2. latency while ingesting

function startLoadGenerator() {
  const child: ChildProcess = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), [], {
    execArgv: process.execArgv,
    stdio: 'inherit',
  });
  cleanups.push(async () => void (child.exitCode === null && child.kill()));
  const ask = <T>(message: LoadMessage, answer: string) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load generator exited (code ${code})`));
      child.once('exit', onExit);
      child.once('message', (reply: { type: string; summary?: T; error?: string }) => {
        child.off('exit', onExit);
        if (reply.type === answer) resolve(reply.summary as T);
        else reject(new Error(`load generator: ${reply.error ?? reply.type}`));
      });
      child.send(message);
    });
  return {
    start: (m: Omit<Extract<LoadMessage, { type: 'start' }>, 'type'>) => ask<void>({ type: 'start', ...m }, 'started'),
    stop: () => ask<LatencySummary>({ type: 'stop' }, 'summary'),
  };
}

interface Window extends LatencySummary {
  kind: 'idle' | 'ingesting' | 'embedding';
  round: number;
  loopDelayP99Ms: number;
  serverCpuPct: number;
  /** Ingesting: from saving the manual row until it is 'ready'. */
  ingestSeconds?: number;
  /** Embedding: from saving the manual row until every chunk is embedded. */
  embeddedSeconds?: number;
  chunks?: number;
}

async function measureLatency() {
  const db = await openDatabase(cleanups, log);
  const server: BenchServer = await startServer(cleanups, { databaseUrl: db.url, poolSize: 10, embeddings, log });
  const made = performance.now();
  const manual = await makeDenseManual(opts.pages);
  log(
    `made a ${opts.pages}-page manual (${(manual.length / 2 ** 20).toFixed(1)} MB) in ${((performance.now() - made) / 1000).toFixed(1)} s; database: ${db.kind}`,
  );
  const rest = `/api/db/${server.projectId}/rest/v1`;
  const headers = { authorization: `Bearer ${server.serviceKey}` };
  const load = startLoadGenerator();
  const request = {
    url: server.url,
    path: `${rest}/manuals?select=id,title,processing_status&order=created_at.desc&limit=20`,
    headers,
    connections: opts.connections,
    rate: opts.rate,
  };

  const windowOf = async (
    kind: Window['kind'],
    round: number,
    during: () => Promise<Partial<Window>>,
  ): Promise<Window> => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const cpu = process.cpuUsage();
    const started = performance.now();
    delay.enable();
    await load.start(request);
    const extra = await during();
    const summary = await load.stop();
    delay.disable();
    const used = process.cpuUsage(cpu);
    const w: Window = {
      kind,
      round,
      ...summary,
      ...extra,
      loopDelayP99Ms: delay.percentile(99) / 1e6,
      serverCpuPct: ((used.user + used.system) / 1000 / (performance.now() - started)) * 100,
    };
    log(
      `round ${round} ${kind.padEnd(9)} ${w.requests} requests  p50 ${w.p50.toFixed(2)} ms  p99 ${w.p99.toFixed(2)} ms  max ${w.max.toFixed(1)} ms  ` +
        `event-loop delay p99 ${w.loopDelayP99Ms.toFixed(1)} ms  server CPU ${w.serverCpuPct.toFixed(0)}%${w.ingestSeconds ? `  ingested in ${w.ingestSeconds.toFixed(1)} s (${w.chunks} chunks)` : ''}` +
        `${w.embeddedSeconds ? `  every chunk embedded ${w.embeddedSeconds.toFixed(1)} s after saving` : ''}  non-2xx ${w.non2xx}  errors ${w.errors}`,
    );
    return w;
  };

  const manualId = (round: number) => `manual_bench_${round}`;
  let saved = 0;
  const ingest = async (round: number): Promise<Partial<Window>> => {
    const fileUrl = await server.saveFile(`manuals/bench-${round}.pdf`, manual);
    const id = manualId(round);
    const started = performance.now();
    saved = started;
    const res = await fetch(`${server.url}${rest}/manuals`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        id,
        title: `Bench manual ${round}`,
        file_url: fileUrl,
        file_name: `bench-${round}.pdf`,
        file_size: manual.length,
      }),
    });
    if (!res.ok) throw new Error(`creating the manual failed: ${res.status} ${await res.text()}`);
    for (;;) {
      const { rows } = await server.pool.query<{ processing_status: string; processing_error: string | null }>(
        'SELECT processing_status, processing_error FROM manuals WHERE id = $1',
        [id],
      );
      if (rows[0]?.processing_status === 'failed') throw new Error(`ingestion failed: ${rows[0].processing_error}`);
      if (rows[0]?.processing_status === 'ready') break;
      if (performance.now() - started > 300_000) throw new Error('ingestion took longer than 300 s');
      await sleep(50);
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    const chunks = (
      await server.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM manual_content WHERE manual_id = $1', [id])
    ).rows[0]!.n;
    return { ingestSeconds, chunks };
  };
  // The background indexer's work on the manual: until every chunk has its embedding.
  const embed = async (round: number): Promise<Partial<Window>> => {
    for (;;) {
      const { rows } = await server.pool.query<{ left: number }>(
        'SELECT count(*)::int AS left FROM manual_content WHERE manual_id = $1 AND embedding IS NULL',
        [manualId(round)],
      );
      if (rows[0]!.left === 0) break;
      if (performance.now() - saved > 3_600_000) throw new Error('embedding took longer than an hour');
      await sleep(250);
    }
    return { embeddedSeconds: (performance.now() - saved) / 1000 };
  };
  // Deleted again (chunks and file), so every round starts from the same tables.
  const remove = (round: number) =>
    fetch(`${server.url}${rest}/manuals?id=eq.${manualId(round)}`, { method: 'DELETE', headers });

  log(`warm-up: 3 s of load, then one ingestion of the manual (until 'ready')`);
  await windowOf('idle', 0, () => sleep(3000).then(() => ({})));
  await windowOf('ingesting', 0, () => ingest(0));
  await remove(0);
  const windows: Window[] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    await sleep(2000); // the deletion's cleanup and autovacuum settle
    windows.push(await windowOf('idle', round, () => sleep(opts.window * 1000).then(() => ({}))));
    windows.push(await windowOf('ingesting', round, () => ingest(round)));
    if (embeddings) windows.push(await windowOf('embedding', round, () => embed(round)));
    await remove(round);
  }
  const of = (kind: Window['kind']) => windows.filter((w) => w.kind === kind);
  const idleP99 = median(of('idle').map((w) => w.p99));
  const ingestP99 = median(of('ingesting').map((w) => w.p99));
  const readySeconds = median(of('ingesting').map((w) => w.ingestSeconds!));
  const embedding = embeddings
    ? {
        p99: median(of('embedding').map((w) => w.p99)),
        p99Ratio: median(of('embedding').map((w) => w.p99)) / idleP99,
        embeddedSeconds: median(of('embedding').map((w) => w.embeddedSeconds!)),
        timeRatio: median(of('embedding').map((w) => w.embeddedSeconds!)) / readySeconds,
      }
    : undefined;
  return {
    embeddings,
    postgres: server.postgres,
    database: db.kind,
    request: `GET ${request.path} (service key) at ${opts.rate} req/s over ${opts.connections} connections`,
    windows,
    idleP99,
    ingestP99,
    ratio: ingestP99 / idleP99,
    pagesPerSecond: opts.pages / readySeconds,
    readySeconds,
    embedding,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const extraction = latencyOnly ? undefined : await measureExtraction();
  const latency = await measureLatency();
  const valid = latency.windows.every((w) => w.non2xx === 0 && w.errors === 0);
  console.log('');
  if (extraction)
    console.log(
      `extraction, ${extraction.pages} pages: ours ${extraction.oursPps.toFixed(0)} pages/s, pdftotext ${extraction.popplerPps.toFixed(0)} pages/s; ` +
        `ratio ${extraction.ratio.toFixed(2)}; target >= ${TARGET_SPEED_RATIO}: ${extraction.ratio >= TARGET_SPEED_RATIO ? 'met' : 'NOT MET'}`,
    );
  console.log(
    `API p99 (median of ${opts.rounds} rounds): idle ${latency.idleP99.toFixed(2)} ms, while ingesting ${opts.pages} pages ${latency.ingestP99.toFixed(2)} ms; ` +
      `ratio ${latency.ratio.toFixed(2)}; target <= ${TARGET_P99_RATIO}: ${latency.ratio <= TARGET_P99_RATIO ? 'met' : 'NOT MET'} (ingestion ${latency.pagesPerSecond.toFixed(0)} pages/s)`,
  );
  const { embedding } = latency;
  if (embedding)
    console.log(
      `embeddings: every chunk embedded ${embedding.embeddedSeconds.toFixed(1)} s after saving, against ${latency.readySeconds.toFixed(1)} s until 'ready'; ` +
        `ratio ${embedding.timeRatio.toFixed(2)}; target <= ${TARGET_EMBEDDED_RATIO}: ${embedding.timeRatio <= TARGET_EMBEDDED_RATIO ? 'met' : 'NOT MET'}. ` +
        `API p99 while embedding ${embedding.p99.toFixed(2)} ms; ratio to idle ${embedding.p99Ratio.toFixed(2)}; target <= ${TARGET_P99_RATIO}: ${embedding.p99Ratio <= TARGET_P99_RATIO ? 'met' : 'NOT MET'}`,
    );
  if (!valid) console.log('INVALID RUN: non-2xx answers or errors during the measurement');
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres: latency.postgres,
    loadAverage: { before: loadBefore, after: loadavg()[0]! },
  };
  const result = {
    benchmark: 'extract',
    date: startedAt.toISOString(),
    command: `npx tsx bench/extract/run.ts ${process.argv.slice(2).join(' ')}`.trim(),
    machine,
    settings: { ...opts, embeddings: embeddingsArg, latencyOnly },
    extraction,
    latency,
    valid,
  };
  const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, `extract-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  log(
    `machine: ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}, PostgreSQL ${machine.postgres}; load average ${machine.loadAverage.before.toFixed(2)} before, ${machine.loadAverage.after.toFixed(2)} after`,
  );
  log(`results written to ${file}`);
  const missed =
    (extraction && extraction.ratio < TARGET_SPEED_RATIO) ||
    latency.ratio > TARGET_P99_RATIO ||
    (embedding && (embedding.timeRatio > TARGET_EMBEDDED_RATIO || embedding.p99Ratio > TARGET_P99_RATIO));
  if (!valid || missed) process.exitCode = 1;
}

process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

async function cleanup() {
  for (const step of cleanups.splice(0).reverse())
    await step().catch((error: unknown) => console.error('[bench/extract] cleanup failed:', error));
}

try {
  await main();
} catch (error) {
  console.error('[bench/extract] failed:', error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
