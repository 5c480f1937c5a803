import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeScannedPdf } from '../../data/ocr/test-support/scanned-pdf.js';
import { SERVICE_MANUAL } from '../../data/ocr/test-support/service-manual.js';
import type { TestUser } from '../../test-support/users.js';
import { retrievePassages } from '../chat/retrieve.js';
import { addManual, signUpLibrarians, useLibrary, waitForIngestion } from './test-support/library-apps.js';

// A scanned manual through the real app: its pages are images only (rendered from the manual's
// text and put back into a PDF), the worker reads them by real OCR, page by page, and its
// passages are found by the chat's retrieval like any other manual's.
const lib = useLibrary();
let app: FastifyInstance;
let people: { admin: TestUser; technician: TestUser };

beforeAll(async () => {
  app = await lib.start();
  people = await signUpLibrarians(app);
});

describe('a scanned manual', () => {
  it('is read by OCR, records its OCR pages, reports progress over realtime, and its pages are found', { timeout: 120_000 }, async () => {
    const pdf = await makeScannedPdf(SERVICE_MANUAL.pages.map((page) => [...page]));
    const manual = await addManual(app, people.technician, { fileName: 'xr-200-service-scan.pdf', bytes: pdf, title: SERVICE_MANUAL.title });
    expect(await waitForIngestion(lib.pool, manual.id, 90_000)).toMatchObject({ processing_status: 'ready', processing_error: null, page_count: 3 });
    const { rows: [row] } = await lib.pool.query<{ ocr_pages: number[] }>('SELECT ocr_pages FROM manuals WHERE id = $1', [manual.id]);
    expect(row!.ocr_pages).toEqual([1, 2, 3]);

    // "Reading scanned pages: n of 3" went out on the manuals channel, in order.
    const history = await app.inject({ method: 'GET', url: '/api/realtime/fieldassist/messages?channel=manuals&limit=100', headers: people.technician.headers });
    const progress = (history.json().messages as { type: string; data: { manualId: string; scannedPagesRead: number; scannedPages: number } }[])
      .filter((message) => message.type === 'manual.progress' && message.data.manualId === manual.id)
      .map((message) => `${message.data.scannedPagesRead} of ${message.data.scannedPages}`);
    expect(progress).toEqual(['0 of 3', '1 of 3', '2 of 3', '3 of 3']);

    // The questions of each page find that page among the top five passages.
    for (const { question, page } of SERVICE_MANUAL.questions) {
      const passages = await retrievePassages(lib.pool, { question, role: 'technician', limit: 5 });
      expect(passages.filter((passage) => passage.manualId === manual.id).map((passage) => passage.page), question).toContain(page);
    }
    const { rows: chunks } = await lib.pool.query<{ extracted_text: string }>('SELECT extracted_text FROM manual_content WHERE manual_id = $1 AND page_number = 2', [manual.id]);
    expect(chunks.map((chunk) => chunk.extracted_text).join(' ')).toMatch(/PN-7720-G/);
  });
});
