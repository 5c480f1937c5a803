import type pg from 'pg';
import { transaction } from '../../db/pool.js';
import type { ProductEventBus } from '../events.js';
import type { Embedder } from './embedder.js';
import { ENTRY_LINE, isFence } from '../../data/option-entry.js';

export interface IndexerDeps {
  pool: pg.Pool;
  embedder: Pick<Embedder, 'embed'>;
  events: ProductEventBus;
  log: (message: string) => void;
}

/** Chunks embedded per batch (a few milliseconds of one core), so progress moves and a stop is quick. */
const BATCH = 16;
/**
 * What is embedded of a chunk: the heading and the start of the text. On bench/retrieval's tuned
 * questions 600 characters ranked better than 300 and as well as the whole chunk (bench/README.md).
 */
export const EMBEDDED_CHARS = 600;

/** The start of a chunk's text that its embedding is computed from, spaces collapsed. */
export const embeddedText = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, EMBEDDED_CHARS);

/** The text a chunk's embedding is computed from. */
export function embeddingInput(heading: string, text: string): string {
  const body = embeddedText(text);
  return heading && !body.startsWith(heading) ? `${heading}. ${body}` : body;
}

export const toBytes = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/** The fewest entries that make a chunk a list whose entries are embedded on their own (listedEntries). */
export const LIST_ENTRIES = 3;

/**
 * The entries of a list of options or commands a chunk holds, when it holds LIST_ENTRIES or more:
 * each a line that begins with an option or a dot command (ENTRY_LINE, data/option-entry.ts:
 * "--fsigned-char By default char is unsigned", "-n --no-spiceinit Don't try to source the file") and
 * the lines going on from it, up to a blank line or the next entry. A name set alone between fences
 * ("```\n-E exitspec\n```") begins an entry that goes on to the paragraph after it, which describes
 * it; a listing of several lines between fences (an example's commands) is neither an entry nor part
 * of one. A chunk is embedded from its first EMBEDDED_CHARS characters, so an entry late in a list is
 * not in its embedding, and the other entries blur one that is: each entry is embedded on its own too
 * (migration 029).
 */
export function listedEntries(text: string): string[] {
  const entries: string[][] = [];
  let entry: string[] | undefined;
  const lines = text.split('\n').map((line) => line.trim());
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (isFence(line)) {
      const end = lines.findIndex((l, j) => j > i && isFence(l));
      const fenced = lines.slice(i + 1, end === -1 ? lines.length : end);
      i = end === -1 ? lines.length : end;
      if (fenced.length !== 1) continue;
      line = fenced[0]!;
      if (!ENTRY_LINE.test(line)) continue;
    }
    if (ENTRY_LINE.test(line)) entries.push((entry = [line]));
    else if (!line) {
      if (entry && entry.length > 1) entry = undefined;
    } else entry?.push(line);
  }
  return entries.length >= LIST_ENTRIES ? entries.map((lines) => lines.join(' ')) : [];
}

/** Vectors stored one after another in one bytea (entry_embeddings); none as '\x'. */
const concatenated = (vectors: Float32Array[]) => Buffer.concat(vectors.map(toBytes));

/** What the indexer still has to do for a chunk: its embedding, or its entries' (not for one never to be embedded, '\x'). */
const UNINDEXED = `(embedding IS NULL OR (entry_embeddings IS NULL AND embedding <> '\\x'))`;

/**
 * Embeds one batch of the chunks that have no embedding yet (a new manual's, or one ingested
 * before embeddings existed), with the entries they list (listedEntries; also for the chunks
 * stored before those were embedded), manual by manual, and reports the manual's progress. Rows
 * are claimed with FOR UPDATE SKIP LOCKED, so several servers share the work. Returns false when
 * nothing is left.
 */
export async function embedNextBatch(deps: IndexerDeps): Promise<boolean> {
  const done = await transaction(deps.pool, async (client) => {
    const { rows } = await client.query<{
      id: string;
      manual_id: string;
      heading: string;
      extracted_text: string;
      embedded: boolean;
    }>(
      `SELECT id, manual_id, heading, extracted_text, embedding IS NOT NULL AS embedded FROM manual_content
       WHERE ${UNINDEXED} AND manual_id = (SELECT manual_id FROM manual_content WHERE ${UNINDEXED} ORDER BY manual_id LIMIT 1)
       ORDER BY manual_id, chunk_index LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [BATCH],
    );
    if (rows.length === 0) return undefined;
    // Each chunk's texts: its own start (unless embedded already), then each entry's, all in one batch.
    const texts = rows.map((r) => ({
      chunk: r.embedded ? [] : [embeddingInput(r.heading, r.extracted_text)],
      entries: listedEntries(r.extracted_text).map((entry) => embeddingInput(r.heading, entry)),
    }));
    const vectors = await deps.embedder.embed(
      texts.flatMap((t) => [...t.chunk, ...t.entries]),
      'index',
    );
    let at = 0;
    const take = (n: number) => vectors.slice(at, (at += n));
    const computed = texts.map((t) => ({ chunk: take(t.chunk.length)[0], entries: take(t.entries.length) }));
    await client.query(
      `UPDATE manual_content c SET embedding = coalesce(c.embedding, v.e), entry_embeddings = v.entries
       FROM unnest($1::text[], $2::bytea[], $3::bytea[]) v(id, e, entries) WHERE c.id = v.id`,
      [
        rows.map((r) => r.id),
        computed.map((c) => (c.chunk ? toBytes(c.chunk) : null)),
        computed.map((c) => concatenated(c.entries)),
      ],
    );
    return rows[0]!.manual_id;
  });
  if (!done) return false;
  const { rows } = await deps.pool.query<{ total: string; embedded: string }>(
    'SELECT count(*) AS total, count(embedding) AS embedded FROM manual_content WHERE manual_id = $1',
    [done],
  );
  const { total, embedded } = rows[0]!;
  deps.events.emit('manual.indexing', { manualId: done, embedded: Number(embedded), total: Number(total) });
  return true;
}

/**
 * The background indexer: embeds every chunk that lacks an embedding, waking when a manual is
 * ingested and polling as a fallback. The embeddings are computed in the embedder's index lane
 * (worker threads), never on the request thread; `concurrency` batches at once (one per index
 * worker), each claiming its own rows.
 */
export function startIndexer(deps: IndexerDeps, { pollMs = 5000, concurrency = 1 } = {}) {
  let running = true;
  // Counts wake-ups, so one that comes while a loop is still looking (not yet asleep) is not lost.
  let wakes = 0;
  const sleepers = new Set<() => void>();
  const wake = () => {
    wakes++;
    for (const resolve of sleepers) resolve();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  const loop = async () => {
    while (running) {
      const seen = wakes;
      try {
        if (!(await embedNextBatch(deps)) && seen === wakes) await sleep(pollMs);
      } catch (error) {
        if (!running) break;
        deps.log(`indexer: ${(error as Error).message}`);
        await sleep(pollMs);
      }
    }
  };
  const loops = Promise.all(Array.from({ length: concurrency }, loop));
  return {
    wake,
    async stop() {
      running = false;
      wake();
      await loops;
    },
  };
}
