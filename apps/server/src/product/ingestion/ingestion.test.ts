import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makeFigurePdf, makePdf, tinyPng } from '../../data/fixtures/make-documents.js';
import type { TestUser } from '../../test-support/users.js';
import {
  addManual,
  type LogLine,
  signUpLibrarians,
  useLibrary,
  waitFor,
  waitForIngestion,
} from './test-support/library-apps.js';

// Manual ingestion through the real app: upload and save as the web app does, then the
// in-process worker reads the stored file and writes searchable chunks to PostgreSQL.
const lib = useLibrary();
let app: FastifyInstance;
let people: { admin: TestUser; technician: TestUser };
const log: LogLine[] = [];

beforeAll(async () => {
  app = await lib.start({ logTo: log });
  people = await signUpLibrarians(app);
});

/** A page whose every line names its page (P<n>X), long enough for several chunks. */
const pageLines = (n: number, extra: string[] = []) => [
  `Chapter ${n}: known text of page ${n}.`,
  ...extra,
  ...Array.from(
    { length: 30 },
    (_, i) => `Line ${i} of P${n}X: tighten the flange bolts evenly and check the seal again.`,
  ),
];

interface ContentRow {
  id: string;
  chunk_index: number;
  page_number: number;
  extracted_text: string;
}
const contentOf = async (manualId: string) =>
  (
    await lib.pool.query<ContentRow>(
      'SELECT id, chunk_index, page_number, extracted_text FROM manual_content WHERE manual_id = $1 ORDER BY chunk_index',
      [manualId],
    )
  ).rows;

/** The pages whose chunks match a term as typed, the way the chat's retrieval matches codes. */
async function pagesMatching(manualId: string, term: string): Promise<number[]> {
  const { rows } = await lib.pool.query<{ page_number: number }>(
    "SELECT DISTINCT page_number FROM manual_content WHERE manual_id = $1 AND search @@ phraseto_tsquery('simple', $2) ORDER BY page_number",
    [manualId, term],
  );
  return rows.map((r) => r.page_number);
}

describe('the ingestion log', () => {
  it('reports a manual ingested at info level, not as a warning', async () => {
    const manual = await addManual(app, people.technician, {
      fileName: 'Logged manual.pdf',
      bytes: await makePdf([pageLines(1)]),
    });
    await waitForIngestion(lib.pool, manual.id);
    const aboutIt = log.filter((line) => line.msg?.includes(manual.id));
    expect(aboutIt).toEqual([
      { level: 30, msg: expect.stringMatching(new RegExp(`^ingested manual ${manual.id}: 1 pages, \\d+ chunks$`)) },
    ]);
  });
});

describe('manual ingestion', () => {
  it('turns a multi-page PDF into ordered chunks, each on its own page, searchable by part number and error code', async () => {
    const pdf = await makePdf([
      pageLines(1),
      pageLines(2, ['Replacement part number PN-4471-B fits every model.']),
      pageLines(3),
      pageLines(4, ['Error E42 means the drain pump is blocked.']),
    ]);
    const manual = await addManual(app, people.technician, { fileName: 'Washer service manual.pdf', bytes: pdf });
    expect(manual.processing_status).toBe('pending');

    const done = await waitForIngestion(lib.pool, manual.id);
    expect(done).toMatchObject({ processing_status: 'ready', processing_error: null, page_count: 4 });

    const chunks = await contentOf(manual.id);
    expect(chunks.length).toBeGreaterThan(4); // about 2,500 characters a page: several chunks each
    expect(chunks.map((c) => c.chunk_index)).toEqual(chunks.map((_, i) => i));
    expect(chunks.map((c) => c.page_number)).toEqual([...chunks.map((c) => c.page_number)].sort((a, b) => a - b));
    expect(new Set(chunks.map((c) => c.page_number))).toEqual(new Set([1, 2, 3, 4]));
    for (const chunk of chunks) {
      // Every page marker in a chunk is its own page's: no chunk crosses a page.
      const markers = [...chunk.extracted_text.matchAll(/P(\d+)X/g)].map((m) => Number(m[1]));
      expect(markers.length).toBeGreaterThan(0);
      expect(new Set(markers)).toEqual(new Set([chunk.page_number]));
    }
    for (const n of [1, 2, 3, 4]) {
      const first = chunks.find((c) => c.extracted_text.includes(`Chapter ${n}: known text of page ${n}.`));
      expect(first?.page_number).toBe(n);
    }

    expect(await pagesMatching(manual.id, 'PN-4471-B')).toEqual([2]);
    expect(await pagesMatching(manual.id, 'E42')).toEqual([4]);
    expect(await pagesMatching(manual.id, 'PN-4471-C')).toEqual([]);
    expect(await pagesMatching(manual.id, 'E43')).toEqual([]);

    // Readers get the chunks through the REST API as well.
    const listed = await app.inject({
      method: 'GET',
      url: `/api/db/fieldassist/rest/v1/manual_content?manual_id=eq.${manual.id}&select=chunk_index,page_number&order=chunk_index.asc`,
      headers: people.technician.headers,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual(chunks.map((c) => ({ chunk_index: c.chunk_index, page_number: c.page_number })));
  });

  it('ingests a DOCX manual as one page', async () => {
    const docx = await makeDocx(['Cooling unit manual.', 'If the display shows E42, replace valve PN-4471-B.']);
    const manual = await addManual(app, people.technician, { fileName: 'cooling-unit.docx', bytes: docx });
    expect(await waitForIngestion(lib.pool, manual.id)).toMatchObject({ processing_status: 'ready', page_count: 1 });
    const chunks = await contentOf(manual.id);
    expect(chunks).toEqual([
      expect.objectContaining({
        chunk_index: 0,
        page_number: 1,
        extracted_text: 'Cooling unit manual.\n\nIf the display shows E42, replace valve PN-4471-B.',
      }),
    ]);
    expect(await pagesMatching(manual.id, 'E42')).toEqual([1]);
  });

  it('records the pages of a PDF that hold a figure, with where on the page it is, and none for a Word manual', async () => {
    const lines = (n: number) => [`Page ${n}: condenser fan.`, 'Check the fan wiring against the diagram.'];
    const pdf = await makeFigurePdf([lines(1), lines(2), lines(3)], { figurePage: 3, logoPage: 1 });
    const manual = await addManual(app, people.technician, { fileName: 'fan-wiring.pdf', bytes: pdf });
    const docx = await makeDocx(['Fan wiring notes.', 'Check the fan wiring against the diagram.']);
    const word = await addManual(app, people.technician, { fileName: 'fan-notes.docx', bytes: docx });
    for (const { id } of [manual, word])
      expect(await waitForIngestion(lib.pool, id)).toMatchObject({ processing_status: 'ready' });
    const { rows } = await lib.pool.query<{
      id: string;
      figure_pages: number[];
      figure_boxes: Record<string, number[]>;
    }>('SELECT id, figure_pages, figure_boxes FROM manuals WHERE id = ANY($1)', [[manual.id, word.id]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.figure_pages]))).toEqual({ [manual.id]: [3], [word.id]: [] });
    // The diagram's region (pdf-figures.test.ts checks it closely), by page; none for Word.
    const boxes = Object.fromEntries(rows.map((r) => [r.id, r.figure_boxes]));
    expect(Object.keys(boxes[manual.id]!)).toEqual(['3']);
    expect(boxes[manual.id]!['3']).toHaveLength(4);
    expect(boxes[word.id]).toEqual({});
  });

  it('ingests a Latin-1 text manual with its accents intact', async () => {
    const text = 'Température élevée: vérifier le ventilateur.\nCode E42: pièce PN-4471-B à remplacer.\n';
    const manual = await addManual(app, people.technician, {
      fileName: 'notice.txt',
      bytes: Buffer.from(text, 'latin1'),
    });
    expect(await waitForIngestion(lib.pool, manual.id)).toMatchObject({ processing_status: 'ready', page_count: 1 });
    expect((await contentOf(manual.id)).map((c) => c.extracted_text)).toEqual([text.trim()]);
    expect(await pagesMatching(manual.id, 'PN-4471-B')).toEqual([1]);
    const { rows } = await lib.pool.query(
      "SELECT 1 FROM manual_content WHERE manual_id = $1 AND search @@ plainto_tsquery('simple', 'température')",
      [manual.id],
    );
    expect(rows).toHaveLength(1);
  });

  it.each([
    {
      name: 'a PNG named .pdf',
      fileName: 'scan.pdf',
      bytes: tinyPng,
      error: 'Unsupported file type: image/png. FieldAssist reads PDF, DOCX, DOC and TXT files',
    },
    { name: 'a zero-byte PDF', fileName: 'empty.pdf', bytes: Buffer.alloc(0), error: 'PDF content is empty' },
  ])(
    'marks $name failed with a clear reason, keeps the manual and does not retry',
    async ({ fileName, bytes, error }) => {
      const manual = await addManual(app, people.technician, { fileName, bytes });
      expect(await waitForIngestion(lib.pool, manual.id)).toMatchObject({
        processing_status: 'failed',
        processing_error: error,
        page_count: null,
      });
      expect(await contentOf(manual.id)).toEqual([]);

      const job = async () =>
        (
          await lib.pool.query(
            'SELECT status, attempts, last_error, locked_by FROM ingestion_jobs WHERE manual_id = $1',
            [manual.id],
          )
        ).rows[0];
      expect(await job()).toEqual({ status: 'failed', attempts: 1, last_error: error, locked_by: null });
      // The worker goes on with the next manual and never takes the failed one again.
      const next = await addManual(app, people.technician, {
        fileName: 'after.txt',
        bytes: Buffer.from('Next manual.'),
      });
      expect((await waitForIngestion(lib.pool, next.id)).processing_status).toBe('ready');
      expect(await job()).toEqual({ status: 'failed', attempts: 1, last_error: error, locked_by: null });

      const row = await app.inject({
        method: 'GET',
        url: `/api/db/fieldassist/rest/v1/manuals?id=eq.${manual.id}&select=id,processing_status,processing_error`,
        headers: people.technician.headers,
      });
      expect(row.json()).toEqual([{ id: manual.id, processing_status: 'failed', processing_error: error }]);
    },
  );

  it('deletes a manual with its chunks, its tags and, shortly after, its stored file', async () => {
    const pdf = await makePdf([pageLines(1), pageLines(2)]);
    const manual = await addManual(app, people.technician, { fileName: 'to-delete.pdf', bytes: pdf });
    await waitForIngestion(lib.pool, manual.id);
    const tag = await app.inject({
      method: 'POST',
      url: '/api/db/fieldassist/rest/v1/tags',
      headers: people.technician.headers,
      payload: { id: 'tag_delete_test', name: 'Pumps', created_by: people.technician.email },
    });
    expect(tag.statusCode).toBeLessThan(300);
    const link = await app.inject({
      method: 'POST',
      url: '/api/db/fieldassist/rest/v1/manual_tags',
      headers: people.technician.headers,
      payload: { id: 'mt_delete_test', manual_id: manual.id, tag_id: 'tag_delete_test' },
    });
    expect(link.statusCode).toBeLessThan(300);
    const fileUrl = new URL(manual.file_url);
    const key = fileUrl.pathname.replace(/^\/files\//, '');
    expect(await lib.storedFiles()).toContain(key);
    expect((await contentOf(manual.id)).length).toBeGreaterThan(1);

    const url = `/api/db/fieldassist/rest/v1/manuals?id=eq.${manual.id}`;
    const refused = await app.inject({ method: 'DELETE', url, headers: people.technician.headers });
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', message: 'Only admins can delete manuals' });
    expect((await app.inject({ method: 'GET', url: fileUrl.pathname })).statusCode).toBe(200);

    expect((await app.inject({ method: 'DELETE', url, headers: people.admin.headers })).statusCode).toBe(200);
    const count = async (table: string) =>
      (await lib.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE manual_id = $1`, [manual.id])).rows[0].n;
    expect({
      content: await count('manual_content'),
      tags: await count('manual_tags'),
      jobs: await count('ingestion_jobs'),
    }).toEqual({ content: 0, tags: 0, jobs: 0 });
    await waitFor(
      "the deleted manual's file to be removed",
      async () => ((await app.inject({ method: 'GET', url: fileUrl.pathname })).statusCode === 404 ? true : undefined),
      5_000,
    );
    expect(await lib.storedFiles()).not.toContain(key);
    await waitFor(
      'the removal to be recorded',
      async () => ((await lib.pool.query('SELECT 1 FROM storage_garbage')).rowCount === 0 ? true : undefined),
      5_000,
    );
  });
});
