// The text embeddings made from the real word vectors (the binary the tests' global setup makes).
import { beforeAll, describe, expect, it } from 'vitest';
import {
  embedText,
  hasWordVector,
  isCommonWord,
  loadWordVectors,
  nearestWords,
  type WordVectors,
} from './word-vectors.js';

let vectors: WordVectors;
beforeAll(async () => {
  vectors = await loadWordVectors();
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('word-vector embeddings', () => {
  it('are unit vectors of 100 dimensions with nothing along the direction all texts share', () => {
    expect(vectors.dimensions).toBe(100);
    expect(vectors.index.size).toBe(100_000);
    for (const text of ['Replace the fuse F2.', 'The compressor never stops and the cabinet runs warm']) {
      const v = embedText(vectors, text);
      expect(v).toHaveLength(100);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      expect(Math.abs(dot(v, vectors.common))).toBeLessThan(1e-5);
    }
    // No known word: no direction at all, so its cosine to anything is 0.
    expect([...embedText(vectors, 'zzqx-4471 ##')].every((x) => x === 0)).toBe(true);
  });

  it('weigh rare words above common ones, so texts about the same thing are closest', () => {
    const question = embedText(vectors, 'the fridge is warm and the compressor runs all the time');
    const cooling = embedText(vectors, 'A torn door gasket lets warm air in; the compressor never stops.');
    const lighting = embedText(vectors, 'The LED strip behind the top panel is fed from a 12 V driver.');
    const commonOnly = embedText(vectors, 'it is the one that is in the way of the other');
    expect(dot(question, cooling)).toBeGreaterThan(dot(question, lighting) + 0.2);
    expect(dot(question, cooling)).toBeGreaterThan(dot(question, commonOnly) + 0.2);
    // A word's weight falls with its frequency rank: "the" counts a fraction of "compressor".
    const weight = (word: string) => vectors.weights[vectors.index.get(word)!]!;
    expect(weight('the')).toBeLessThan(0.05);
    expect(weight('compressor')).toBeGreaterThan(0.9);
  });

  it('find the words nearest in meaning to a word, the closest first', () => {
    const near = nearestWords(vectors, 'wipe', { count: 5, minSimilarity: 0.6 });
    expect(near.map((n) => n.word)).toContain('erase');
    expect(near.map((n) => n.word)).not.toContain('wipe');
    expect(near.map((n) => n.similarity)).toEqual([...near.map((n) => n.similarity)].sort((a, b) => b - a));
    expect(near.every((n) => n.similarity >= 0.6)).toBe(true);
    expect(nearestWords(vectors, 'zzqx', { count: 5, minSimilarity: 0 })).toEqual([]);
  });

  it('know whether they have a word, by a look-up', () => {
    expect(['programmer', 'Priority', 'baud'].map((w) => hasWordVector(vectors, w))).toEqual([true, true, true]);
    expect(['programer', 'priorty', 'buad'].map((w) => hasWordVector(vectors, w))).toEqual([false, false, false]);
  });

  it('know the common words past those with a vector, and no vendor’s tool among them', () => {
    // Common words the vectors lack (ranks 104,000 to 143,000) ...
    expect(['dongle', 'Preamp', 'semicolon'].map((w) => hasWordVector(vectors, w))).toEqual([false, false, false]);
    expect(['dongle', 'Preamp', 'semicolon', 'baud'].map((w) => isCommonWord(vectors, w))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // ... and tools no manual of the bench names: rarer, or not in the corpus at all.
    expect(['simulink', 'codesys', 'vivado', 'programer'].map((w) => isCommonWord(vectors, w))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
