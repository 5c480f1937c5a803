// Makes the word vectors' binary (word-vectors.ts) when missing: run by the server's build, so the
// first embeddings after an install do not wait for it.
import { convertWordVectors, wordVectorsPath, wordVectorsReady } from '../product/retrieval/word-vectors.js';

if (wordVectorsReady()) console.log(`word vectors: ${wordVectorsPath()} is ready`);
else {
  const started = performance.now();
  await convertWordVectors();
  console.log(`word vectors: made ${wordVectorsPath()} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
