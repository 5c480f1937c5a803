import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { CHUNKING_VERSION } from '../../data/chunk-sections.js';
import { makePdf } from '../../data/fixtures/make-documents.js';
import { makeScannedPdf } from '../../data/ocr/test-support/scanned-pdf.js';
import { multipart } from '../../storage/test-support/upload-requests.js';
import { SERVICE_MANUAL } from '../../data/ocr/test-support/service-manual.js';
import type { TestUser } from '../../test-support/users.js';
import { type Passage, retrievePassages } from '../retrieval/retrieve.js';
import { SCANNED_NOTICE } from '../manuals/service.js';
import { addManual, signUpLibrarians, useLibrary, waitFor, waitForIngestion } from './test-support/library-apps.js';

// A scanned manual through the real app: its pages are images only (rendered from the manual's
// text and put back into a PDF), the worker reads them by real OCR, page by page, and its
// passages are found by the chat's retrieval like any other manual's.
// Reading every page by OCR took 24-43 s beside another test file on two cores, close to the
// default 60 s extraction limit; this file tests what OCR reads, the limit has tests of its own.
const lib = useLibrary({ EXTRACT_TIMEOUT_MS: '85000' });
let app: FastifyInstance;
let people: { admin: TestUser; technician: TestUser };

beforeAll(async () => {
  app = await lib.start();
  people = await signUpLibrarians(app);
  await lib.pool.query(
    "INSERT INTO release_versions (id, version_name, release_year) VALUES ('ver_scan', 'Series 2', 2019)",
  );
});

/** A file uploaded through the library routes by the technician: the server's answer. */
async function uploadToLibrary(fileName: string, bytes: Buffer) {
  const { payload, contentType } = multipart([{ name: 'file', fileName, bytes }]);
  const uploaded = await app.inject({
    method: 'POST',
    url: '/api/app/fieldassist/manuals/uploads',
    headers: { ...people.technician.headers, 'content-type': contentType },
    payload,
  });
  expect(uploaded.statusCode).toBe(200);
  return uploaded.json();
}

/** Saves an uploaded file as a manual and waits until it is ingested with `pages` pages: its id and OCR pages. */
async function saveAndIngest(body: Record<string, unknown>, pages: number) {
  const saved = await app.inject({
    method: 'POST',
    url: '/api/app/fieldassist/manuals',
    headers: people.technician.headers,
    payload: { versionId: 'ver_scan', tagIds: [], ...body },
  });
  expect(saved.statusCode).toBe(201);
  const manualId = saved.json().id as string;
  expect(await waitForIngestion(lib.pool, manualId, 90_000)).toMatchObject({
    processing_status: 'ready',
    page_count: pages,
  });
  const { rows } = await lib.pool.query<{ ocr_pages: number[] }>('SELECT ocr_pages FROM manuals WHERE id = $1', [
    manualId,
  ]);
  return { manualId, ocrPages: rows[0]!.ocr_pages };
}

/** A manual made of one scanned page, uploaded through the library and ingested once for the tests that need one (OCR takes seconds). */
let pageTwoScan: ReturnType<typeof ingestPageTwoScan> | undefined;
async function ingestPageTwoScan() {
  const file = await uploadToLibrary('PN-7720-G_XR-200_scan.pdf', await makeScannedPdf([[...SERVICE_MANUAL.pages[1]]]));
  return { file, ...(await saveAndIngest({ path: file.path, ...file.metadata }, 1)) };
}

describe('a scanned manual', () => {
  it(
    'is read by OCR, records its OCR pages, reports progress over realtime, and its pages are found',
    { timeout: 120_000 },
    async () => {
      const pdf = await makeScannedPdf(SERVICE_MANUAL.pages.map((page) => [...page]));
      const manual = await addManual(app, people.technician, {
        fileName: 'xr-200-service-scan.pdf',
        bytes: pdf,
        title: SERVICE_MANUAL.title,
      });
      expect(await waitForIngestion(lib.pool, manual.id, 90_000)).toMatchObject({
        processing_status: 'ready',
        processing_error: null,
        page_count: 3,
      });
      const {
        rows: [row],
      } = await lib.pool.query<{ ocr_pages: number[] }>('SELECT ocr_pages FROM manuals WHERE id = $1', [manual.id]);
      expect(row!.ocr_pages).toEqual([1, 2, 3]);

      // "Reading scanned pages: n of 3" went out on the manuals channel, in order.
      const history = await app.inject({
        method: 'GET',
        url: '/api/realtime/fieldassist/messages?channel=manuals&limit=100',
        headers: people.technician.headers,
      });
      const progress = (
        history.json().messages as {
          type: string;
          data: { manualId: string; scannedPagesRead: number; scannedPages: number };
        }[]
      )
        .filter((message) => message.type === 'manual.progress' && message.data.manualId === manual.id)
        .map((message) => `${message.data.scannedPagesRead} of ${message.data.scannedPages}`);
      expect(progress).toEqual(['0 of 3', '1 of 3', '2 of 3', '3 of 3']);

      // The questions of each page find that page among the top five passages.
      for (const { question, page } of SERVICE_MANUAL.questions) {
        const { passages } = await retrievePassages({ pool: lib.pool }, { question, role: 'technician', limit: 5 });
        expect(
          passages.filter((passage: Passage) => passage.manualId === manual.id).map((passage: Passage) => passage.page),
          question,
        ).toContain(page);
      }
      const { rows: chunks } = await lib.pool.query<{ extracted_text: string }>(
        'SELECT extracted_text FROM manual_content WHERE manual_id = $1 AND page_number = 2',
        [manual.id],
      );
      expect(chunks.map((chunk) => chunk.extracted_text).join(' ')).toMatch(/PN-7720-G/);
    },
  );

  it(
    'uploaded through the library with a text cover, is read at ingestion, its scanned page by OCR',
    { timeout: 120_000 },
    async () => {
      const merged = await PDFDocument.create();
      const cover = await makePdf([['XR-200 Air-Cooled Chiller', 'Service Manual', 'Part No. PN-2000-X']]);
      for (const source of [cover, await makeScannedPdf([[...SERVICE_MANUAL.pages[1]]])]) {
        const from = await PDFDocument.load(source);
        for (const page of await merged.copyPages(from, from.getPageIndices())) merged.addPage(page);
      }
      const file = await uploadToLibrary('xr-200-mixed.pdf', Buffer.from(await merged.save()));
      expect(file.unreadable).toBeUndefined(); // the cover has text; the scanned page is read at ingestion
      const { manualId, ocrPages } = await saveAndIngest(
        { path: file.path, fileName: file.fileName, title: 'XR-200 mixed scan' },
        2,
      );
      expect(ocrPages).toEqual([2]);
      const { rows } = await lib.pool.query<{ page_number: number }>(
        "SELECT DISTINCT page_number FROM manual_content WHERE manual_id = $1 AND search @@ phraseto_tsquery('simple', 'PN-7720-G')",
        [manualId],
      );
      expect(rows.map((r) => r.page_number)).toEqual([2]);
    },
  );

  it(
    'of scanned pages only, uploaded through the library, is kept with a notice and read by OCR at ingestion',
    { timeout: 120_000 },
    async () => {
      const { file, ocrPages } = await (pageTwoScan ??= ingestPageTwoScan());
      expect(file.unreadable).toBeUndefined();
      expect(file.notice).toBe(SCANNED_NOTICE);
      expect(file.metadata).toMatchObject({ title: 'XR-200 scan', partNumber: 'PN-7720-G' });
      expect(ocrPages).toEqual([1]);
    },
  );

  it(
    'read again after an older chunking, stays ready on the cards: no scan progress goes out',
    { timeout: 120_000 },
    async () => {
      const { manualId } = await (pageTwoScan ??= ingestPageTwoScan());
      const manual = { id: manualId };
      const statusMessages = async () => {
        const history = await app.inject({
          method: 'GET',
          url: '/api/realtime/fieldassist/messages?channel=manuals&limit=100',
          headers: people.technician.headers,
        });
        return (history.json().messages as { type: string; data: { manualId: string; status?: string } }[])
          .filter((m) => m.data.manualId === manual.id && m.type !== 'manual.indexing')
          .map((m) => (m.type === 'manual.status' ? m.data.status : m.type));
      };
      const before = await statusMessages();
      expect(before).toContain('manual.progress');

      await lib.pool.query('UPDATE manuals SET chunked_with = $2 WHERE id = $1', [manual.id, CHUNKING_VERSION - 1]);
      await lib.stop(app);
      app = await lib.start();
      await waitFor(
        'the scanned manual to be read again',
        async () =>
          (await lib.pool.query('SELECT chunked_with FROM manuals WHERE id = $1', [manual.id])).rows[0].chunked_with ===
          CHUNKING_VERSION
            ? true
            : undefined,
        90_000,
      );
      // The new app's history holds the refresh's messages alone: its 'ready', no scan progress, no 'processing'.
      expect(await statusMessages()).toEqual(['ready']);
    },
  );
});
