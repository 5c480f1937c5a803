import type pg from 'pg';
import { transaction } from '../../db/pool.js';
import type { ProductEventBus } from '../events.js';
import type { Embedder } from './embedder.js';

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

/**
 * Embeds one batch of the chunks that have no embedding yet (a new manual's, or one ingested
 * before embeddings existed), manual by manual, and reports the manual's progress. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so several servers share the work. Returns false when
 * nothing is left.
 */
export async function embedNextBatch(deps: IndexerDeps): Promise<boolean> {
  const done = await transaction(deps.pool, async (client) => {
    const { rows } = await client.query<{ id: string; manual_id: string; heading: string; extracted_text: string }>(
      `SELECT id, manual_id, heading, extracted_text FROM manual_content
       WHERE embedding IS NULL AND manual_id = (SELECT manual_id FROM manual_content WHERE embedding IS NULL ORDER BY manual_id LIMIT 1)
       ORDER BY manual_id, chunk_index LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [BATCH],
    );
    if (rows.length === 0) return undefined;
    const vectors = await deps.embedder.embed(
      rows.map((r) => embeddingInput(r.heading, r.extracted_text)),
      'index',
    );
    await client.query(
      'UPDATE manual_content c SET embedding = v.e FROM unnest($1::text[], $2::bytea[]) v(id, e) WHERE c.id = v.id',
      [rows.map((r) => r.id), vectors.map(toBytes)],
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
