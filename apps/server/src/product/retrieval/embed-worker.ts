import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  type EmbedRequest,
  type EmbedResponse,
  embedWorkerRole,
  type Neighbour,
  type NeighbourOptions,
  wordVectorsWorkerRole,
} from './embed-protocol.js';
import {
  convertWordVectors,
  embedText,
  hasWordVector,
  isCommonWord,
  loadWordVectors,
  nearestWords,
} from './word-vectors.js';

// Embeds texts with the static word vectors (word-vectors.ts), loaded when the worker starts so
// the first batch does not wait for them. Started with wordVectorsWorkerRole, it instead makes
// the vectors' binary once and exits.

/** Words whose nearest words are remembered, the earliest asked let go first. */
const NEAREST_KEPT = 10_000;

function serve(port: NonNullable<typeof parentPort>) {
  // Left unhandled, a failed load ends the worker: its lane fails the batch and starts another.
  const vectors = loadWordVectors();
  // A word's nearest words do not change while the vectors are loaded: each is searched once (a scan
  // of 50,000 vectors, milliseconds that a question's other look-ups in this thread wait behind).
  const nearest = new Map<string, Neighbour[]>();
  const nearestOf = (loaded: Awaited<typeof vectors>, word: string, options: NeighbourOptions) => {
    const key = JSON.stringify([word, options]);
    let found = nearest.get(key);
    if (!found) {
      found = nearestWords(loaded, word, options);
      if (nearest.size >= NEAREST_KEPT) nearest.delete(nearest.keys().next().value!);
      nearest.set(key, found);
    }
    return found;
  };
  port.on('message', async (request: EmbedRequest) => {
    const { id } = request;
    try {
      const loaded = await vectors;
      if ('neighboursOf' in request) {
        const neighbours = request.neighboursOf.map((word) => nearestOf(loaded, word, request.options));
        port.postMessage({ id, neighbours } satisfies EmbedResponse);
        return;
      }
      if ('knownOf' in request) {
        const has = request.among === 'vectors' ? hasWordVector : isCommonWord;
        const known = request.knownOf.map((word) => has(loaded, word));
        port.postMessage({ id, known } satisfies EmbedResponse);
        return;
      }
      const out = request.texts.map((text) => embedText(loaded, text));
      port.postMessage(
        { id, vectors: out } satisfies EmbedResponse,
        out.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies EmbedResponse);
    }
  });
}

const role = (workerData as { role?: string } | null)?.role;
if (!isMainThread && parentPort && role === embedWorkerRole) serve(parentPort);
if (!isMainThread && parentPort && role === wordVectorsWorkerRole) {
  const port = parentPort;
  void convertWordVectors().then((path) => port.postMessage({ path }));
}
