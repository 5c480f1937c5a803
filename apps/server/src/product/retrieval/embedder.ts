import { Worker } from 'node:worker_threads';
import { type EmbedRequest, type EmbedResponse, embedWorkerRole } from './embed-protocol.js';

export interface EmbedLimits {
  /** Longest one batch may take once its worker has it (the first also loads the model, ~0.2-2 s). */
  timeoutMs: number;
  /** V8 old-generation heap of each worker. */
  maxMemoryMb: number;
  /** Worker threads of the `index` lane, each embedding one batch at a time (1 when absent). */
  indexWorkers?: number;
}

/**
 * Two lanes, so a question never waits behind a manual being indexed: `question` embeds the
 * chat's questions in a worker thread of its own, `index` the chunks of manuals in
 * `indexWorkers` worker threads.
 */
export type EmbedLane = 'question' | 'index';

export interface Embedder {
  /** Unit-length vectors, one per text, computed in the lane's worker thread. Rejects on a time limit or a dead worker. */
  embed(texts: string[], lane: EmbedLane): Promise<Float32Array[]>;
  close(): Promise<void>;
}

// From the sources (vitest, tsx) the worker is TypeScript and needs a loader; from dist it is plain JS.
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './embed-worker.dev.mjs' : './embed-worker.js', import.meta.url);
// The index lane's worker (about 150 MB with the model) is let go when no manual needs it.
const indexIdleMs = 30_000;
// A question asked while this many wait is answered without embeddings rather than late.
const maxQuestionsWaiting = 8;

interface Job extends EmbedRequest {
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

function createLane(limits: EmbedLimits, keepAlive: boolean) {
  let worker: Worker | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let current: (Job & { timer: NodeJS.Timeout }) | undefined;
  const waiting: Job[] = [];
  let nextId = 1;
  let closed = false;

  function stopWorker() {
    clearTimeout(idleTimer);
    const old = worker;
    worker = undefined;
    void old?.terminate();
  }

  function fail(error: Error) {
    const job = current;
    current = undefined;
    stopWorker();
    if (job) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    next();
  }

  function spawn(): Worker {
    const w = new Worker(workerUrl, {
      workerData: { role: embedWorkerRole },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    w.on('message', (message: EmbedResponse) => {
      const job = current;
      if (!job || job.id !== message.id) return;
      current = undefined;
      clearTimeout(job.timer);
      if ('error' in message) job.reject(new Error(`Embedding failed: ${message.error}`));
      else job.resolve(message.vectors);
      next();
    });
    w.on('error', (error: Error) => {
      if (w === worker) fail(error);
    });
    w.on('exit', (code) => {
      if (w === worker) fail(new Error(`The embedding worker stopped unexpectedly (exit code ${code})`));
    });
    return w;
  }

  function next() {
    if (current || closed) return;
    const job = waiting.shift();
    if (!job) {
      if (!keepAlive && worker) idleTimer = setTimeout(stopWorker, indexIdleMs).unref();
      worker?.unref();
      return;
    }
    clearTimeout(idleTimer);
    worker ??= spawn();
    worker.ref();
    const timer = setTimeout(
      () => fail(new Error(`Embedding took longer than ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    current = { ...job, timer };
    worker.postMessage({ id: job.id, texts: job.texts } satisfies EmbedRequest);
  }

  return {
    get waiting() {
      return waiting.length + (current ? 1 : 0);
    },
    run(texts: string[]): Promise<Float32Array[]> {
      if (closed) return Promise.reject(new Error('The embedder is closed'));
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        waiting.push({ id: nextId++, texts, resolve, reject });
        next();
      });
    },
    close() {
      closed = true;
      for (const job of waiting.splice(0)) job.reject(new Error('The embedder is closed'));
      fail(new Error('The embedder is closed'));
    },
  };
}

/**
 * The sentence-embedding model of one server process, in bounded worker threads (a time limit
 * per batch, a heap limit per worker): a worker that hangs or dies is replaced for the next batch.
 */
export function createEmbedder(limits: EmbedLimits): Embedder {
  const question = createLane(limits, true);
  const index = Array.from({ length: limits.indexWorkers ?? 1 }, () => createLane(limits, false));
  return {
    embed(texts, lane) {
      if (lane === 'index') return index.reduce((a, b) => (b.waiting < a.waiting ? b : a)).run(texts);
      if (question.waiting >= maxQuestionsWaiting)
        return Promise.reject(new Error('Too many questions are waiting to be embedded'));
      return question.run(texts);
    },
    async close() {
      question.close();
      for (const lane of index) lane.close();
    },
  };
}
