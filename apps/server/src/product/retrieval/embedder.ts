import { Worker } from 'node:worker_threads';
import {
  type EmbedRequest,
  type EmbedResponse,
  type EmbedWork,
  embedWorkerRole,
  type Neighbour,
  type NeighbourOptions,
  wordVectorsWorkerRole,
} from './embed-protocol.js';
import { wordVectorsPath, wordVectorsReady } from './word-vectors.js';

export interface EmbedLimits {
  /** Longest one batch may take once its worker has it (the first also loads the vectors, ~0.5 s). */
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
  /** Each word's nearest words in meaning, the closest first, computed in the question lane's worker thread. */
  neighbours(words: string[], options: NeighbourOptions): Promise<Neighbour[][]>;
  /** Whether the word vectors have each word (a typo or a coined name has none), in the question lane's worker thread. */
  knows(words: string[]): Promise<boolean[]>;
  /** Whether each word is a common word (word-vectors.ts isCommonWord): a vendor's tool or a part is not. */
  commonWords(words: string[]): Promise<boolean[]>;
  close(): Promise<void>;
}

// From the sources (vitest, tsx) the worker is TypeScript and needs a loader; from dist it is plain JS.
const fromSource = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSource ? './embed-worker.dev.mjs' : './embed-worker.js', import.meta.url);
// The index lane's worker (about 100 MB with the vectors) is let go when no manual needs it.
const indexIdleMs = 30_000;
// A question asked while this many wait is answered without embeddings rather than late.
const maxQuestionsWaiting = 8;

/** The texts or words a piece of work is about. */
const itemsOf = (work: EmbedWork) =>
  'texts' in work ? work.texts : 'knownOf' in work ? work.knownOf : work.neighboursOf;

type Job = EmbedRequest & {
  resolve: (answer: Float32Array[] | Neighbour[][] | boolean[]) => void;
  reject: (error: Error) => void;
};

// Longest the one-time conversion of the word vectors may take (about 8 s on a loaded machine).
const conversionTimeoutMs = 600_000;

/**
 * Whether the word vectors' binary exists; when it does not (an install that skipped the build),
 * makes it once in a worker thread of its own, with its own time limit. Until then embeddings fail
 * fast: questions are ranked by full text and the indexer tries again later.
 */
function wordVectorsAvailable(limits: EmbedLimits, log: (message: string) => void, onReady: () => void) {
  let converting = false;
  let ready = wordVectorsReady();
  return () => {
    if (ready || converting) return ready;
    if ((ready = wordVectorsReady())) return true;
    converting = true;
    log(`embeddings: making ${wordVectorsPath()} from the word vectors' package, once (npm run build makes it too)`);
    const w = new Worker(workerUrl, {
      workerData: { role: wordVectorsWorkerRole },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    const timer = setTimeout(() => {
      log(`embeddings: making the word vectors took over ${conversionTimeoutMs} ms; stopped, tried again later`);
      void w.terminate();
    }, conversionTimeoutMs).unref();
    w.on('message', () => {
      ready = true;
      log('embeddings: word vectors ready');
      onReady();
    });
    w.on('error', (error: Error) => log(`embeddings: making the word vectors failed: ${error.message}`));
    w.on('exit', () => {
      clearTimeout(timer);
      converting = false;
    });
    w.unref();
    return false;
  };
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
      else
        job.resolve('vectors' in message ? message.vectors : 'known' in message ? message.known : message.neighbours);
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
    const { resolve: _resolve, reject: _reject, ...request } = job;
    worker.postMessage(request satisfies EmbedRequest);
  }

  return {
    /** Starts the worker now, so it has its vectors loaded before the first batch. */
    warm() {
      if (closed || worker) return;
      worker = spawn();
      worker.unref();
    },
    get waiting() {
      return waiting.length + (current ? 1 : 0);
    },
    run<Answer extends Float32Array[] | Neighbour[][] | boolean[]>(work: EmbedWork): Promise<Answer> {
      if (closed) return Promise.reject(new Error('The embedder is closed'));
      if (itemsOf(work).length === 0) return Promise.resolve([] as unknown as Answer);
      return new Promise((resolve, reject) => {
        waiting.push({ id: nextId++, ...work, resolve: resolve as Job['resolve'], reject });
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
 * The text embeddings of one server process (SIF-weighted word vectors, word-vectors.ts), in
 * bounded worker threads (a time limit per batch, a heap limit per worker): a worker that hangs
 * or dies is replaced for the next batch. The question lane's worker starts at once.
 */
export function createEmbedder(limits: EmbedLimits, log: (message: string) => void = console.warn): Embedder {
  const question = createLane(limits, true);
  const index = Array.from({ length: limits.indexWorkers ?? 1 }, () => createLane(limits, false));
  const available = wordVectorsAvailable(limits, log, () => question.warm());
  if (available()) question.warm();
  // A question's work (its vector, or its words' neighbours) is refused rather than answered late.
  function askQuestionLane<Answer extends Float32Array[] | Neighbour[][] | boolean[]>(
    work: EmbedWork,
  ): Promise<Answer> {
    if (!available()) return Promise.reject(new Error('The word vectors are not ready yet'));
    if (question.waiting >= maxQuestionsWaiting)
      return Promise.reject(new Error('Too many questions are waiting to be embedded'));
    return question.run<Answer>(work);
  }
  return {
    embed(texts, lane) {
      if (lane === 'question') return askQuestionLane({ texts });
      if (!available()) return Promise.reject(new Error('The word vectors are not ready yet'));
      return index.reduce((a, b) => (b.waiting < a.waiting ? b : a)).run({ texts });
    },
    neighbours(words, options) {
      return askQuestionLane({ neighboursOf: words, options });
    },
    knows(words) {
      return askQuestionLane({ knownOf: words, among: 'vectors' });
    },
    commonWords(words) {
      return askQuestionLane({ knownOf: words, among: 'common words' });
    },
    async close() {
      question.close();
      for (const lane of index) lane.close();
    },
  };
}
