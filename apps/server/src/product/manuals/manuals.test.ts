// A manual's life through product/manuals on the real app: upload (store + read text and
// metadata), save (manual + tags + queued ingestion in one transaction), discard; who may do it;
// and a file's text read once per upload.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalProvider } from '../../ai/local.js';
import { chunkText } from '../../data/chunk.js';
import { createExtractor, type ExtractDocument } from '../../data/extract.js';
import { makePdf } from '../../data/fixtures/make-documents.js';
import { createFileStore } from '../../storage/index.js';
import { multipart } from '../../storage/test-support/upload-requests.js';
import { signUpUser, type TestUser } from '../../test-support/users.js';
import { createProductEvents } from '../events.js';
import { productFolders } from '../folders.js';
import { startIngestionWorker } from '../ingestion/worker.js';
import {
  addManual,
  LIBRARY_PUBLIC_URL,
  signUpLibrarians,
  useLibrary,
  waitForIngestion,
} from '../ingestion/test-support/library-apps.js';
import { saveManual, uploadManualFile } from './service.js';

const COVER = [
  'RTU-500 Rooftop Unit',
  'Service Manual',
  'Part No. PN-4471-B',
  'Published: March 2021',
  'The rooftop unit uses R-410A refrigerant; check the thermostat first.',
];
const api = (path: string) => `/api/app/fieldassist/manuals${path}`;

function upload(app: FastifyInstance, user: TestUser | undefined, fileName: string, bytes: Buffer) {
  const { payload, contentType } = multipart([{ name: 'file', fileName, bytes }]);
  return app.inject({
    method: 'POST',
    url: api('/uploads'),
    headers: { ...user?.headers, 'content-type': contentType },
    payload,
  });
}
const save = (app: FastifyInstance, user: TestUser | undefined, body: unknown) =>
  app.inject({ method: 'POST', url: api(''), headers: user?.headers, payload: body as object });

describe('the manual library upload, through the routes', () => {
  const lib = useLibrary();
  let app: FastifyInstance;
  let people: { admin: TestUser; technician: TestUser; manager: TestUser; viewer: TestUser };
  const count = async (sql: string, values: unknown[]) =>
    (await lib.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, values)).rows[0]!.n;

  beforeAll(async () => {
    app = await lib.start();
    const librarians = await signUpLibrarians(app);
    people = {
      ...librarians,
      manager: await signUpUser(app, { role: 'manager' }),
      viewer: await signUpUser(app, { role: 'viewer' }),
    };
    await lib.pool.query(
      "INSERT INTO release_versions (id, version_name, release_year) VALUES ('ver_1', 'Series 5', 2024)",
    );
    await lib.pool.query("INSERT INTO tags (id, name) VALUES ('tag_hvac', 'HVAC'), ('tag_rtu', 'Rooftop')");
  });

  it('stores the file and reads its metadata, then saves the manual with its tags and ingests it', async () => {
    const uploaded = await upload(
      app,
      people.technician,
      'rtu-500-service.pdf',
      await makePdf([COVER, ['Fault E4: compressor lockout.']]),
    );
    expect(uploaded.statusCode).toBe(200);
    const file = uploaded.json();
    expect(file).toMatchObject({
      fileName: 'rtu-500-service.pdf',
      fileType: 'application/pdf',
      metadata: {
        title: 'RTU-500 Rooftop Unit Service Manual',
        technology: 'HVAC',
        datePublished: 'March 2021',
        partNumber: 'PN-4471-B',
      },
    });
    expect(file.path).toMatch(/^manuals\/\d+\/rtu-500-service\.pdf$/);
    expect(file.unreadable).toBeUndefined();

    const saved = await save(app, people.technician, {
      path: file.path,
      fileName: file.fileName,
      versionId: 'ver_1',
      ...file.metadata,
      technology: 'Unknown',
      tagIds: ['tag_hvac', 'tag_rtu'],
    });
    expect(saved.statusCode).toBe(201);
    const manual = saved.json();
    expect(manual).toMatchObject({
      title: 'RTU-500 Rooftop Unit Service Manual',
      technology: null,
      partNumber: 'PN-4471-B',
      fileUrl: file.fileUrl,
      fileName: 'rtu-500-service.pdf',
      documentType: 'manual',
      uploadedBy: people.technician.email,
      processingStatus: 'pending',
      versionId: 'ver_1',
    });
    expect(await count('manual_tags WHERE manual_id = $1', [manual.id])).toBe(2);
    expect(await waitForIngestion(lib.pool, manual.id)).toMatchObject({ processing_status: 'ready', page_count: 2 });
    expect(
      await count("manual_content WHERE manual_id = $1 AND search @@ phraseto_tsquery('simple', 'E4')", [manual.id]),
    ).toBe(1);
    // The text kept from the upload went with the ingestion.
    expect(await count('manual_file_texts WHERE file_url = $1', [file.fileUrl])).toBe(0);
  });

  it('saves the manual and its tags together or not at all', async () => {
    const file = (
      await upload(app, people.technician, 'PN-77_pump_notes.txt', Buffer.from('Pump notes\nCheck the impeller.'))
    ).json();
    expect(file.metadata).toMatchObject({ title: 'Pump notes', partNumber: 'PN-77' });
    // The second tag does not exist: its link fails, and the manual row goes with it.
    const refused = await save(app, people.technician, {
      path: file.path,
      versionId: 'ver_1',
      title: 'Pump notes',
      tagIds: ['tag_hvac', 'tag_missing'],
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CONFLICT' });
    expect(await count('manuals WHERE file_url = $1', [file.fileUrl])).toBe(0);
    expect(
      await count(
        "manual_tags WHERE tag_id = 'tag_hvac' AND manual_id NOT IN (SELECT id FROM manuals WHERE title LIKE 'RTU-500%')",
        [],
      ),
    ).toBe(0);
    expect(
      await count('ingestion_jobs j WHERE NOT EXISTS (SELECT 1 FROM manuals m WHERE m.id = j.manual_id)', []),
    ).toBe(0);
    // An unknown version likewise saves nothing; the same upload then saves whole.
    expect(
      (await save(app, people.technician, { path: file.path, versionId: 'ver_missing', tagIds: [] })).statusCode,
    ).toBe(409);
    expect(await count('manuals WHERE file_url = $1', [file.fileUrl])).toBe(0);
    const saved = await save(app, people.technician, {
      path: file.path,
      versionId: 'ver_1',
      title: 'Unknown',
      tagIds: ['tag_rtu'],
    }); // no fileName: the uploaded one
    expect(saved.json()).toMatchObject({ title: 'PN-77 pump notes', fileName: 'PN-77_pump_notes.txt' });
    expect(await count('manual_tags WHERE manual_id = $1', [saved.json().id])).toBe(1);
  });

  it('answers an unreadable file with its metadata from the file name and the reason', async () => {
    const res = await upload(
      app,
      people.admin,
      '3BHS123456_ACS880_Hardware_Manual.pdf',
      Buffer.from('%PDF-1.7 broken'),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      metadata: { title: 'ACS880 Hardware Manual', partNumber: '3BHS123456', technology: 'Unknown' },
      unreadable: expect.any(String),
    });
  });

  it('discards an upload nobody saves, file and text', async () => {
    const file = (await upload(app, people.technician, 'draft.txt', Buffer.from('Draft notes'))).json();
    expect(await count('manual_file_texts WHERE file_url = $1', [file.fileUrl])).toBe(1);
    // Another librarian cannot discard (or save) it: it looks like a missing file.
    const other = await signUpUser(app, { role: 'technician' });
    const foreign = await app.inject({
      method: 'DELETE',
      url: api('/uploads'),
      headers: other.headers,
      payload: { path: file.path },
    });
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND', message: 'File not found' });
    expect((await save(app, other, { path: file.path, versionId: 'ver_1', tagIds: [] })).json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'File not found',
    });
    const res = await app.inject({
      method: 'DELETE',
      url: api('/uploads'),
      headers: people.technician.headers,
      payload: { path: file.path },
    });
    expect(res.json()).toEqual({ removed: [file.path] });
    expect(await count('manual_file_texts WHERE file_url = $1', [file.fileUrl])).toBe(0);
    expect(await count('storage_objects WHERE path = $1', [file.path])).toBe(0);
  });

  it('refuses callers who may not write the library, before the body, leaving nothing stored', async () => {
    const before = await lib.storedFiles();
    expect((await upload(app, undefined, 'x.txt', Buffer.from('x'))).json()).toMatchObject({ code: 'UNAUTHORIZED' });
    for (const user of [people.manager, people.viewer]) {
      for (const res of [
        await upload(app, user, 'x.txt', Buffer.from('x')),
        await save(app, user, { nonsense: true }),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({
          code: 'FORBIDDEN',
          message: 'You do not have permission to upload manuals',
        });
      }
    }
    expect(await lib.storedFiles()).toEqual(before);
  });

  it('answers bad input with 400 and the field', async () => {
    const res = await save(app, people.technician, { versionId: 'ver_1', tagIds: 'tag_hvac' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('body.path') });
    const notMultipart = await app.inject({
      method: 'POST',
      url: api('/uploads'),
      headers: people.technician.headers,
      payload: { file: 'x' },
    });
    expect(notMultipart.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('deletes a manual for an admin only, with its tags; a missing one is 404', async () => {
    const file = (await upload(app, people.technician, 'old.txt', Buffer.from('Old notes'))).json();
    const manual = (
      await save(app, people.technician, { path: file.path, versionId: 'ver_1', tagIds: ['tag_hvac'] })
    ).json();
    const remove = (user: TestUser, id: string) =>
      app.inject({ method: 'DELETE', url: api(`/${id}`), headers: user.headers });
    for (const user of [people.technician, people.manager, people.viewer]) {
      expect((await remove(user, manual.id)).json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Only admins can delete manuals',
      });
    }
    expect((await remove(people.admin, manual.id)).json()).toEqual({ id: manual.id });
    expect(await count('manuals WHERE id = $1', [manual.id])).toBe(0);
    expect(await count('manual_tags WHERE manual_id = $1', [manual.id])).toBe(0);
    expect((await remove(people.admin, manual.id)).json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Manual not found',
    });
  });

  it('ingests a manual created through the generic REST API too (the Blink client)', async () => {
    const manual = await addManual(app, people.technician, {
      fileName: 'rest.txt',
      bytes: Buffer.from('Saved through REST.'),
    });
    expect(await waitForIngestion(lib.pool, manual.id)).toMatchObject({ processing_status: 'ready' });
  });
});

describe("a file's text, read once per upload", () => {
  const lib = useLibrary(); // no app: the test's worker is the only one
  const extractor = createExtractor();
  afterAll(() => extractor.close());

  it('is read when uploaded and not again when ingested; a manual saved without an upload is read by its ingestion', async () => {
    const reads: string[] = [];
    const extract: ExtractDocument = (file) => (
      reads.push(file.fileName.replace(/^\d+_/, '')),
      extractor.extractDocument(file)
    );
    const files = createFileStore({
      dataDir: lib.dataDir,
      publicUrl: LIBRARY_PUBLIC_URL,
      pool: lib.pool,
      log: () => undefined,
      rules: productFolders({ pool: lib.pool, publicUrl: LIBRARY_PUBLIC_URL }),
    });
    const deps = { pool: lib.pool, files, extract, ai: createLocalProvider(), log: () => undefined };
    const service = { kind: 'service' } as const;
    const worker = startIngestionWorker(
      {
        pool: lib.pool,
        files,
        extract,
        chunk: chunkText,
        events: createProductEvents(),
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      },
      { pollMs: 100 },
    );
    try {
      const pdf = await makePdf([COVER, ['Fault E4: compressor lockout.']]);
      const uploaded = await uploadManualFile(deps, {
        caller: service,
        fileName: 'rtu.pdf',
        stream: Readable.from([pdf]),
      });
      expect(reads).toHaveLength(1);
      const manual = await saveManual(deps, {
        caller: service,
        path: uploaded.path,
        versionId: 'ver_none',
        tagIds: [],
      }).catch((error: Error) => error);
      expect(manual).toBeInstanceOf(Error); // no such version: nothing saved
      await lib.pool.query(
        "INSERT INTO release_versions (id, version_name, release_year) VALUES ('ver_none', 'V', 2024)",
      );
      const saved = await saveManual(deps, { caller: service, path: uploaded.path, versionId: 'ver_none', tagIds: [] });
      expect(await waitForIngestion(lib.pool, saved.id)).toMatchObject({ processing_status: 'ready', page_count: 2 });
      expect(reads).toEqual(['rtu.pdf']);

      // The counter does see ingestion's reads: a manual row saved without an upload is read there.
      await lib.pool.query(
        "INSERT INTO manuals (id, title, file_url, file_name) VALUES ('manual_plain', 'Plain', $1, 'plain.pdf')",
        [uploaded.fileUrl],
      );
      await lib.pool.query("INSERT INTO ingestion_jobs (manual_id) VALUES ('manual_plain')");
      expect(await waitForIngestion(lib.pool, 'manual_plain')).toMatchObject({ processing_status: 'ready' });
      expect(reads).toEqual(['rtu.pdf', 'plain.pdf']);
    } finally {
      await worker.stop();
    }
  });
});
