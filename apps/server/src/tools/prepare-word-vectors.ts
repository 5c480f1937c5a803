// Makes the word vectors' binary (word-vectors.ts) and WordNet's compact file (word-net.ts) when
// missing: run by the server's build, so the first embeddings and questions after an install do not
// wait for them.
import { convertWordNet, wordNetPath, wordNetReady } from '../product/retrieval/word-net.js';
import { convertWordVectors, wordVectorsPath, wordVectorsReady } from '../product/retrieval/word-vectors.js';

if (wordVectorsReady()) console.log(`word vectors: ${wordVectorsPath()} is ready`);
else {
  const started = performance.now();
  await convertWordVectors();
  console.log(`word vectors: made ${wordVectorsPath()} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (wordNetReady()) console.log(`WordNet: ${wordNetPath()} is ready`);
else {
  const started = performance.now();
  await convertWordNet();
  console.log(`WordNet: made ${wordNetPath()} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
