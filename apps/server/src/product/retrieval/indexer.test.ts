// The background indexer and the semantic stage, against the real database and the real
// word vectors in their worker threads.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createProductEvents, type ProductEvents } from '../events.js';
import { createEmbedder } from './embedder.js';
import { embeddingInput, embedNextBatch, listedEntries, startIndexer } from './indexer.js';
import { findCandidates, retrievePassages } from './retrieve.js';

const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
afterAll(() => embedder.close());

let pool: pg.Pool;
const progress: ProductEvents['manual.indexing'][0][] = [];

// Manuals as ingestion left them before embeddings existed: chunks with no heading and no embedding.
const MANUALS = [
  {
    id: 'fridge',
    title: 'Display fridge service manual',
    type: 'manual',
    pages: [
      'Defrosting. When ice builds up on the evaporator, switch the unit to defrost and wait until the coil is clear.',
      'Door seal. A torn gasket lets warm air in; the cabinet then runs warm and the compressor never stops.',
      'Lighting. The LED strip behind the top panel is fed from a 12 V driver.',
      'Condenser cleaning. Brush the dust off the condenser fins every three months so the unit can shed its heat.',
      'Temperature probe. A probe reading far from a reference thermometer is replaced, part PR-220.',
    ],
  },
  {
    id: 'plan',
    title: 'Cold room system planner',
    type: 'system_planner',
    pages: [
      'Cold room isolation: the fridge circuit breaker QF-12 sits in panel B; lock it out before opening the evaporator housing.',
    ],
  },
] as const;

beforeAll(async () => {
  ({ pool } = await createTestDatabase());
  for (const manual of MANUALS) {
    await pool.query(
      'INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES ($1, $2, $3, $4, $5)',
      [manual.id, manual.title, `/f/${manual.id}.pdf`, `${manual.id}.pdf`, manual.type],
    );
    for (const [i, text] of manual.pages.entries()) {
      await pool.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
        [`${manual.id}_${i}`, manual.id, text, i, i + 1],
      );
    }
  }
  const events = createProductEvents();
  events.on('manual.indexing', (p) => progress.push(p));
  while (await embedNextBatch({ pool, embedder, events, log: () => undefined }));
});

describe('re-indexing manuals ingested before embeddings', () => {
  it('embeds every chunk once, as unit vectors of 100 float32, and reports each manual up to its total', async () => {
    const { rows } = await pool.query<{ id: string; embedding: Buffer | null }>(
      'SELECT id, embedding FROM manual_content ORDER BY id',
    );
    expect(rows).toHaveLength(6);
    for (const { embedding } of rows) {
      expect(embedding?.length).toBe(100 * 4);
      const vector = new Float32Array(
        embedding!.buffer.slice(embedding!.byteOffset, embedding!.byteOffset + embedding!.byteLength),
      );
      expect(Math.hypot(...vector)).toBeCloseTo(1, 3);
    }
    expect(progress.at(-1)).toEqual({ manualId: 'plan', embedded: 1, total: 1 });
    expect(progress.filter((p) => p.manualId === 'fridge').at(-1)).toEqual({
      manualId: 'fridge',
      embedded: 5,
      total: 5,
    });
    expect(await embedNextBatch({ pool, embedder, events: createProductEvents(), log: () => undefined })).toBe(false);
  });

  it('runs in the background: woken, it embeds a newly stored manual and reports its progress to the end', async () => {
    const events = createProductEvents();
    const done = new Promise<void>((resolve) =>
      events.on('manual.indexing', (p) => p.manualId === 'late' && p.embedded === p.total && resolve()),
    );
    const indexer = startIndexer({ pool, embedder, events, log: () => undefined }, { pollMs: 60_000 });
    try {
      await pool.query(
        "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('late', 'Late manual', '/f/late.pdf', 'late.pdf')",
      );
      await pool.query(
        "INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, heading) VALUES ('late_0', 'late', 'Replace the fuse F2.', 0, 1, 'Fuses')",
      );
      indexer.wake();
      await done;
    } finally {
      await indexer.stop();
    }
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM manual_content WHERE manual_id = 'late' AND length(embedding) = 400",
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('with two index workers, embeds each chunk once, as one worker would', { timeout: 120_000 }, async () => {
    const pair = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512, indexWorkers: 2 });
    const events = createProductEvents();
    const done = new Promise<void>((resolve) =>
      events.on('manual.indexing', (p) => p.manualId === 'twin' && p.embedded === p.total && resolve()),
    );
    const indexer = startIndexer(
      { pool, embedder: pair, events, log: () => undefined },
      { pollMs: 60_000, concurrency: 2 },
    );
    try {
      await pool.query(
        "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('twin', 'Twin manual', '/f/twin.pdf', 'twin.pdf')",
      );
      // 17 chunks: a batch of 16 and a batch of 1, one for each of the two loops.
      await pool.query(
        `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number)
         SELECT 'twin_' || i, 'twin', 'Check relay K' || i || ' before replacing the fan motor.', i, i + 1 FROM generate_series(0, 16) i`,
      );
      indexer.wake();
      await done;
      const { rows } = await pool.query<{ embedding: Buffer }>(
        "SELECT embedding FROM manual_content WHERE manual_id = 'twin' ORDER BY chunk_index",
      );
      expect(rows.map((r) => r.embedding.length)).toEqual(Array(17).fill(400));
      // The vector one worker gives that text alone.
      const [alone] = await embedder.embed(['Check relay K16 before replacing the fan motor.'], 'index');
      const stored = new Float32Array(new Uint8Array(rows[16]!.embedding).buffer);
      expect(stored.reduce((sum, x, i) => sum + x * alone![i]!, 0)).toBeGreaterThan(0.9999);
    } finally {
      await indexer.stop();
      await pair.close();
      await pool.query("DELETE FROM manuals WHERE id = 'twin'");
    }
  });

  it('leaves a chunk marked never to embed alone', async () => {
    await pool.query(
      "INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, embedding) VALUES ('fridge_x', 'fridge', 'bench filler', 99, 9, '\\x')",
    );
    expect(await embedNextBatch({ pool, embedder, events: createProductEvents(), log: () => undefined })).toBe(false);
    await pool.query("DELETE FROM manual_content WHERE id = 'fridge_x'");
  });
});

describe('the semantic stage', () => {
  it('scores each candidate by the cosine of its embedding to the question, higher for the page that means it', async () => {
    const candidates = await findCandidates(
      { pool, embedder },
      { question: 'the unit is warm and the compressor runs nonstop, cabinet', role: 'viewer' },
    );
    const byPage = new Map(candidates.map((c) => [c.row.page_number, c.semantic!]));
    expect([...byPage.keys()].sort()).toEqual([1, 2, 4]);
    expect(byPage.get(2)).toBeGreaterThan(Math.max(byPage.get(1)!, byPage.get(4)!));
    expect(candidates.every((c) => c.semantic !== undefined && c.semantic > -1 && c.semantic < 1)).toBe(true);
  });

  it('never ranks, suggests or answers with a planner the caller may not read, however close its meaning', async () => {
    const question = 'which breaker do I lock out before opening the fridge evaporator housing?';
    for (const role of ['viewer', 'manager', null] as const) {
      const candidates = await findCandidates({ pool, embedder }, { question, role });
      expect(candidates.some((c) => c.row.manual_id === 'plan')).toBe(false);
      const { passages, suggestions } = await retrievePassages({ pool, embedder }, { question, role });
      expect([...passages, ...suggestions].some((p) => p.manualId === 'plan' || p.text.includes('QF-12'))).toBe(false);
    }
    const { passages } = await retrievePassages({ pool, embedder }, { question, role: 'technician' });
    expect(passages[0]).toMatchObject({ manualId: 'plan', page: 1 });
  });
});

describe('migration 019', () => {
  it('clears the 512-d embeddings of the old sentence model, so the indexer embeds those chunks again with progress', async () => {
    const { pool: old } = await createTestDatabase({ empty: true });
    await migrate(old, { until: 18 });
    await old.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('boiler', 'Boiler manual', '/f/b.pdf', 'b.pdf')",
    );
    const vector = (n: number) => Buffer.from(new Float32Array(n).fill(1 / Math.sqrt(n)).buffer);
    await old.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, embedding) VALUES
         ('b_0', 'boiler', 'Reset the burner after a flame failure.', 0, 1, $1),
         ('b_1', 'boiler', 'Bleed the radiators when the system is cold.', 1, 2, $2),
         ('b_2', 'boiler', 'bench filler', 2, 3, '\\x')`,
      [vector(512), vector(100)],
    );
    await migrate(old);
    const lengths = async () =>
      (
        await old.query<{ id: string; n: number | null }>(
          'SELECT id, octet_length(embedding) AS n FROM manual_content ORDER BY id',
        )
      ).rows;
    expect(await lengths()).toEqual([
      { id: 'b_0', n: null },
      { id: 'b_1', n: 400 },
      { id: 'b_2', n: 0 },
    ]);
    const events = createProductEvents();
    const seen: ProductEvents['manual.indexing'][0][] = [];
    events.on('manual.indexing', (p) => seen.push(p));
    while (await embedNextBatch({ pool: old, embedder, events, log: () => undefined }));
    expect(seen).toEqual([{ manualId: 'boiler', embedded: 3, total: 3 }]);
    expect((await lengths()).map((r) => r.n)).toEqual([400, 400, 0]);
  });
});

// A compiler's option list as a chunk: the entry asked about last, past the embedded 600 characters.
const OPTION_LIST = [
  '--stack-auto All functions in the source file will be compiled as reentrant, i.e. the parameters and local variables will be allocated on the stack. If this option is used all source files in the project should be compiled with this option.',
  '',
  '--callee-saves function1[,function2] The compiler by default uses a caller saves convention for register saving across function calls, however this can cause unnecessary register pushing and popping when calling small functions from larger functions.',
  '',
  '```',
  '-E exitspec[,...]',
  '```',
  '',
  'By default the port is left in the state it was found in at startup.',
  '',
  '```',
  '-x one',
  '-y two',
  '```',
  '',
  '--fsigned-char By default char is unsigned. To set the signedness for characters to signed, use this option.',
  'All other types are unaffected.',
].join('\n');

describe('the entries a chunk lists', () => {
  it('reads each option with the lines going on from it, a fenced name with the paragraph after it, and no listing', () => {
    expect(listedEntries(OPTION_LIST)).toEqual([
      expect.stringMatching(/^--stack-auto All functions .* with this option\.$/),
      expect.stringMatching(/^--callee-saves function1\[,function2\] The compiler .* larger functions\.$/),
      '-E exitspec[,...] By default the port is left in the state it was found in at startup.',
      '--fsigned-char By default char is unsigned. To set the signedness for characters to signed, use this option. All other types are unaffected.',
    ]);
    expect(OPTION_LIST.replace(/\s+/g, ' ').indexOf('--fsigned-char')).toBeGreaterThan(600);
  });

  it('finds none in a chunk of fewer than three entries, or of prose', () => {
    expect(listedEntries('-v --version displays the version.\n\n-c --compile-only will not link.')).toEqual([]);
    expect(
      listedEntries(
        'Defrosting. When ice builds up, switch the unit to defrost.\n\n- a dash item\n- another\n- a third',
      ),
    ).toEqual([]);
  });
});

describe('migration 029', () => {
  it('has the indexer embed the entries of the chunks already embedded, and of those it embeds, leaving the rest as they were', async () => {
    const { pool: old } = await createTestDatabase({ empty: true });
    await migrate(old, { until: 28 });
    await old.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('cc', 'Compiler guide', '/f/cc.pdf', 'cc.pdf')",
    );
    const stored = Buffer.from(new Float32Array(100).fill(0.1).buffer);
    await old.query(
      `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, heading, embedding) VALUES
         ('cc_0', 'cc', $1, 0, 1, 'Other Options', $2),
         ('cc_1', 'cc', 'Install the compiler from the package.', 1, 2, '', $2),
         ('cc_2', 'cc', $1, 2, 3, '', '\\x')`,
      [OPTION_LIST, stored],
    );
    await migrate(old);
    await old.query(
      "INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ('cc_3', 'cc', $1, 3, 4)",
      [OPTION_LIST],
    );
    const events = createProductEvents();
    const seen: ProductEvents['manual.indexing'][0][] = [];
    events.on('manual.indexing', (p) => seen.push(p));
    while (await embedNextBatch({ pool: old, embedder, events, log: () => undefined }));
    expect(seen).toEqual([{ manualId: 'cc', embedded: 4, total: 4 }]);
    const { rows } = await old.query<{ id: string; embedding: Buffer; entry_embeddings: Buffer | null }>(
      'SELECT id, embedding, entry_embeddings FROM manual_content ORDER BY id',
    );
    // An embedding stays as it was; the entries of a list are 4 vectors of 100 float32, a chunk of prose has none.
    expect(rows.map((r) => [r.id, r.embedding.length, r.entry_embeddings?.length ?? null])).toEqual([
      ['cc_0', 400, 4 * 400],
      ['cc_1', 400, 0],
      ['cc_2', 0, null],
      ['cc_3', 400, 4 * 400],
    ]);
    expect(rows[0]!.embedding.equals(stored)).toBe(true);
    // Each entry embedded as a chunk is, under its heading.
    const entries = await embedder.embed(
      listedEntries(OPTION_LIST).map((entry) => embeddingInput('Other Options', entry)),
      'index',
    );
    expect(rows[0]!.entry_embeddings!.equals(Buffer.concat(entries.map((v) => Buffer.from(v.buffer))))).toBe(true);
  });
});

describe('the embedder', () => {
  it('stops a batch that outlasts its time limit, refusing it by name, and each next batch gets a fresh worker', async () => {
    const hurried = createEmbedder({ timeoutMs: 1, maxMemoryMb: 512 });
    try {
      // No batch (a worker alone takes over 100 ms to start and load the vectors) fits in 1 ms: each is stopped, none hangs.
      await expect(hurried.embed(['the first batch'], 'index')).rejects.toThrow('Embedding took longer than 1 ms');
      await expect(hurried.embed(['the second batch'], 'question')).rejects.toThrow('Embedding took longer than 1 ms');
      await expect(hurried.embed(['the third batch'], 'index')).rejects.toThrow('Embedding took longer than 1 ms');
    } finally {
      await hurried.close();
    }
    await expect(hurried.embed(['after closing'], 'index')).rejects.toThrow('The embedder is closed');
  });
});
