// Whether the library answers a question at all, with the semantic stage on: the chat's small
// library (chat-app.ts) in the real database, every chunk embedded with the real word vectors.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/test-database.js';
import { LIBRARY, PLANNER_ID } from '../chat/test-support/chat-app.js';
import { createProductEvents } from '../events.js';
import { createEmbedder } from './embedder.js';
import { embedNextBatch } from './indexer.js';
import { fuseScores, RELEVANCE_THRESHOLD, RELEVANCE_WEIGHTS, relevanceScore } from './rank.js';
import { findCandidates, retrievePassages } from './retrieve.js';

const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
afterAll(() => embedder.close());
let pool: pg.Pool;

beforeAll(async () => {
  ({ pool } = await createTestDatabase());
  for (const manual of LIBRARY) {
    await pool.query(
      'INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES ($1, $2, $3, $4, $5)',
      [manual.id, manual.title, `/f/${manual.id}.pdf`, `${manual.id}.pdf`, manual.type],
    );
    for (const [i, text] of manual.pages.entries())
      await pool.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
        [`${manual.id}_${i}`, manual.id, text, i, i + 1],
      );
  }
  while (await embedNextBatch({ pool, embedder, events: createProductEvents(), log: () => undefined }));
});

describe('relevance with embeddings', () => {
  it('abstains on a question about other equipment that only shares an identifier with a manual', async () => {
    const question = 'How do I replace the timing belt on the RC-50 delivery van?';
    const [top] = await findCandidates({ pool, embedder }, { question, role: 'technician' });
    // The semantic stage is on and the chiller's pages are candidates through the identifier.
    expect(top?.semantic).toBeDefined();
    expect(top?.row.manual_id).toBe('manual_chiller');
    const { relevant, passages, suggestions } = await retrievePassages(
      { pool, embedder },
      { question, role: 'technician' },
    );
    expect(relevant).toBe(false);
    expect(passages).toEqual([]);
    expect(suggestions[0]?.manualId).toBe('manual_chiller');
  });

  it('abstains on other trades, and answers the questions the library covers, in a technician’s words', async () => {
    for (const question of ['how do I tile a bathroom floor?', 'what oil for a lawn mower engine'])
      expect((await retrievePassages({ pool, embedder }, { question, role: 'technician' })).relevant, question).toBe(
        false,
      );
    const answerable: [string, string, number][] = [
      ['pump says E42, what do I do', 'manual_pump', 2],
      ['which seal kit for the CP-200 mechanical seal', 'manual_pump', 3],
      ['boiler won’t light, fault F28', 'manual_boiler', 2],
      ['how much refrigerant is in the RC-50', 'manual_chiller', 4],
      ['chiller alarm A07 high head pressure', 'manual_chiller', 2],
    ];
    for (const [question, manualId, page] of answerable) {
      const { relevant, passages } = await retrievePassages({ pool, embedder }, { question, role: 'viewer' });
      expect(relevant, question).toBe(true);
      expect(passages[0], question).toMatchObject({ manualId, page });
    }
  });

  it('never ranks, answers or suggests a planner to a role that may not read it, at any stage', async () => {
    const question = 'lockout tag LT-9 and valve V-17 before draining chiller RC-50';
    for (const role of ['viewer', 'manager', null] as const) {
      const candidates = await findCandidates({ pool, embedder }, { question, role });
      expect(candidates.some((c) => c.row.manual_id === PLANNER_ID)).toBe(false);
      const { passages, suggestions } = await retrievePassages({ pool, embedder }, { question, role, limit: 50 });
      expect([...passages, ...suggestions].some((p) => p.manualId === PLANNER_ID || p.text.includes('LT-9'))).toBe(
        false,
      );
    }
    const { passages } = await retrievePassages({ pool, embedder }, { question, role: 'technician' });
    expect(passages[0]).toMatchObject({ manualId: PLANNER_ID, page: 1 });
  });

  it('refuses a question about another vendor’s tool the library never names, and only such a question', async () => {
    const candidates = async (question: string) =>
      fuseScores(await findCandidates({ pool, embedder }, { question, role: 'technician' }));
    // The score the same candidates would have without the rule.
    const unnamed = (ranked: Awaited<ReturnType<typeof candidates>>) =>
      relevanceScore(ranked.map((c) => ({ ...c, features: { ...c.features, foreignName: false } })));
    const ask = async (question: string) =>
      (await retrievePassages({ pool, embedder }, { question, role: 'technician' })).relevant;

    // A tool no page names and no common word: its words alone would be answered from the pump's page.
    const tool = 'ltspice: which grease for a noisy bearing';
    const ranked = await candidates(tool);
    expect(ranked[0]?.features.foreignName).toBe(true);
    expect(relevanceScore(ranked)).toBeCloseTo(unnamed(ranked) + RELEVANCE_WEIGHTS.foreignName, 9);
    expect(unnamed(ranked)).toBeGreaterThanOrEqual(RELEVANCE_THRESHOLD);
    expect(await ask(tool)).toBe(false);
    // Read as a typo of another name ("codesys" is no word the vectors know), it is still a name.
    expect((await candidates('codesys: the chiller condenser fans'))[0]?.features.foreignName).toBe(true);

    // A manual the question names outweighs the tool: nothing taken off.
    const named = await candidates('codesys plc says the pump lost its prime');
    expect(named[0]?.features.foreignName).toBe(true);
    expect(named[0]?.features.namedManual).toBe(true);
    expect(relevanceScore(named)).toBeCloseTo(unnamed(named), 9);
    expect(await ask('codesys plc says the pump lost its prime')).toBe(true);

    // Not names: a common word the vectors lack ("dongle"), a unit after a number, a typo of a word they know.
    for (const question of [
      'grinding bearing on my dongle, which grease',
      'pump keeps losing its prime at 2 vpp',
      'grinding baering noise, which grease',
    ])
      expect((await candidates(question))[0]?.features.foreignName, question).toBe(false);
  });
});
