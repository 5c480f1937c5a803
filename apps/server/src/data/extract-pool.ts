import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors.js';
import { type WorkerInput, type WorkerMessage, type WorkerResult, workerRole } from './extract-protocol.js';

export interface ExtractLimits {
  /** Extractions running at once; the rest wait in line. */
  concurrency: number;
  /** Longest an extraction may run once it has a worker. */
  timeoutMs: number;
  /** V8 old-generation heap of each worker. */
  maxMemoryMb: number;
  /** Extractions that may wait; beyond that callers get 503. */
  maxQueued: number;
}

// From the sources (vitest, tsx) the worker is TypeScript and needs a loader; from dist it is plain JS.
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './extract-worker.dev.mjs' : './extract-worker.js', import.meta.url);
// A worker is kept for the next file for a while, then retired, so one heap never serves forever.
const idleMs = 30_000;
const jobsPerWorker = 50;
// resourceLimits cap a worker's V8 heap only: inflated zip entries and PDF streams live in
// ArrayBuffers outside it (a 2 MB DOCX can inflate to 2 GB). So the process's resident memory is
// watched too, and busy workers are stopped when it grows more than twice maxMemoryMb per job.
const watchEveryMs = 100;

const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
const tooComplex = (why: string) =>
  new ApiError('DOCUMENT_TOO_COMPLEX', `Text extraction was stopped: the document ${why}`);
const shuttingDown = () => new ApiError('SERVICE_UNAVAILABLE', 'The server is shutting down');

interface PooledWorker {
  worker: Worker;
  jobs: number;
  idleTimer?: NodeJS.Timeout;
}

export interface WorkerPool {
  run(input: WorkerInput): Promise<WorkerResult>;
  close(): Promise<void>;
}

/**
 * A bounded line of extractions: at most `concurrency` workers busy at once, each job with a
 * time limit and each worker with a memory limit, so a hostile or enormous file costs one
 * worker, never the server. A worker that hits a limit is terminated; a healthy one is kept
 * idle for the next file (starting one takes ~0.1 s from dist, ~1 s under tsx).
 */
export function createWorkerPool(limits: ExtractLimits): WorkerPool {
  let running = 0;
  let closed = false;
  const waiting: { start: () => void; refuse: (error: Error) => void }[] = [];
  const idle: PooledWorker[] = [];
  const busy = new Map<PooledWorker, { stop: (error: Error) => void; rssAtStart: number }>();
  let watchdog: NodeJS.Timeout | undefined;

  function watchMemory() {
    if (busy.size === 0) {
      clearInterval(watchdog);
      watchdog = undefined;
      return;
    }
    const jobs = [...busy.values()];
    const grown = process.memoryUsage.rss() - Math.min(...jobs.map((job) => job.rssAtStart));
    if (grown <= 2 * limits.maxMemoryMb * 1024 * 1024 * jobs.length) return;
    for (const job of jobs) job.stop(tooComplex(`needed more than ${limits.maxMemoryMb} MB of memory to read`));
  }

  function spawn(): PooledWorker {
    const worker = new Worker(workerUrl, {
      workerData: { role: workerRole },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    const pooled: PooledWorker = { worker, jobs: 0 };
    // While idle a worker has no job listeners: a late error must not go unhandled.
    worker.on('error', () => retire(pooled)).on('exit', () => forget(pooled));
    return pooled;
  }

  function forget(pooled: PooledWorker) {
    clearTimeout(pooled.idleTimer);
    const index = idle.indexOf(pooled);
    if (index !== -1) idle.splice(index, 1);
  }

  function retire(pooled: PooledWorker) {
    forget(pooled);
    void pooled.worker.terminate();
  }

  function park(pooled: PooledWorker) {
    if (closed || pooled.jobs >= jobsPerWorker) return retire(pooled);
    pooled.worker.unref();
    pooled.idleTimer = setTimeout(() => retire(pooled), idleMs).unref();
    idle.push(pooled);
  }

  /** Runs one job on one worker; the worker is parked again only if it stayed healthy. */
  function runJob(pooled: PooledWorker, input: WorkerInput): Promise<WorkerResult> {
    const { worker } = pooled;
    clearTimeout(pooled.idleTimer);
    worker.ref();
    return new Promise((resolve, reject) => {
      const result: WorkerResult = { pages: [], scans: [] };
      const timer = setTimeout(
        () => finish(tooComplex(`took longer than ${duration(limits.timeoutMs)} to read`), false),
        limits.timeoutMs,
      );
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'page') result.pages.push(message.page);
        else if (message.type === 'scan') result.scans.push(message.page);
        else if (message.type === 'done') finish(undefined, true);
        // A refusal the extractors named (encrypted, unreadable...) leaves the worker healthy.
        else if (message.code) finish(new ApiError(message.code, message.message), true);
        else finish(new Error(`Text extraction failed: ${message.message}`), false);
      };
      const onError = (error: Error & { code?: string }) => {
        finish(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? tooComplex(`needed more than ${limits.maxMemoryMb} MB of memory to read`)
            : error,
          false,
        );
      };
      const onExit = (code: number) =>
        finish(new Error(`The extraction worker stopped unexpectedly (exit code ${code})`), false);
      function finish(error: Error | undefined, healthy: boolean) {
        if (!busy.delete(pooled)) return;
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        pooled.jobs++;
        if (healthy) park(pooled);
        else retire(pooled);
        if (error) reject(error);
        else resolve(result);
      }
      busy.set(pooled, { stop: (error) => finish(error, false), rssAtStart: process.memoryUsage.rss() });
      watchdog ??= setInterval(watchMemory, watchEveryMs).unref();
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage(input);
    });
  }

  async function takeSlot(): Promise<void> {
    if (closed) throw shuttingDown();
    if (running < limits.concurrency) {
      running++;
      return;
    }
    if (waiting.length >= limits.maxQueued) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Too many documents are waiting to be read; try again shortly');
    }
    // A finishing extraction hands its slot straight to the next in line (see releaseSlot).
    await new Promise<void>((start, refuse) => waiting.push({ start, refuse }));
  }

  function releaseSlot() {
    const next = waiting.shift();
    if (next) next.start();
    else running--;
  }

  return {
    async run(input) {
      await takeSlot();
      try {
        return await runJob(idle.pop() ?? spawn(), input);
      } finally {
        releaseSlot();
      }
    },
    async close() {
      closed = true;
      for (const { refuse } of waiting.splice(0)) refuse(shuttingDown());
      for (const { stop } of [...busy.values()]) stop(shuttingDown());
      for (const pooled of idle.splice(0)) retire(pooled);
    },
  };
}
