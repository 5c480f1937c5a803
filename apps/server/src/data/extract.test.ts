import { readFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractor } from './extract.js';
import {
  makeBlankPdf,
  makeDocx,
  makeDocxBomb,
  makeImageOnlyPdf,
  makeManualPdf,
  manualPageLines,
  tinyPng,
} from './fixtures/make-documents.js';
import { sampleDocParagraphs } from './fixtures/make-fixtures.js';

const fixture = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url));
const extractor = createExtractor({ concurrency: 2 });
afterAll(() => extractor.close());

const french = 'Température élevée, vérifier le ventilateur';

describe('extractDocument: what it reads', () => {
  it('reads a PDF page by page', async () => {
    const bytes = await makeManualPdf(5);
    const result = await extractor.extractDocument({ bytes, fileName: 'manual.pdf' });
    expect(result.kind).toBe('pdf');
    expect(result.pages).toEqual([1, 2, 3, 4, 5].map((n) => ({ page: n, text: manualPageLines(n).join('\n') })));
  });

  it('reads a DOCX, whatever its name says', async () => {
    const bytes = await makeDocx(['Compressor maintenance', french, 'Replace the filter.']);
    const result = await extractor.extractDocument({ bytes, fileName: 'notes.txt', contentType: 'text/plain' });
    expect(result).toEqual({
      kind: 'docx',
      pages: [{ page: 1, text: `Compressor maintenance\n\n${french}\n\nReplace the filter.` }],
      scannedPages: [],
      ocrPages: [],
    });
  });

  it('reads a Word 97 .doc (checked-in fixture made by LibreOffice)', async () => {
    const result = await extractor.extractDocument({ bytes: await fixture('sample.doc'), fileName: 'sample.doc' });
    expect(result).toEqual({
      kind: 'doc',
      pages: [{ page: 1, text: sampleDocParagraphs.join('\n') }],
      scannedPages: [],
      ocrPages: [],
    });
  });

  it.each([
    ['Latin-1', iconv.encode(`${french}.\nPression: 5 bar.`, 'latin1')],
    ['Windows-1252 with curly quotes', iconv.encode(`${french} – « OK »’.\nPression: 5 bar.`, 'windows-1252')],
    ['UTF-8', Buffer.from(`${french}.\nPression: 5 bar.`)],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${french}.\nPression: 5 bar.`)])],
    [
      'UTF-16 LE with BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(`${french}.\nPression: 5 bar.`, 'utf-16le')]),
    ],
    [
      'UTF-16 BE with BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(`${french}.\nPression: 5 bar.`, 'utf-16be')]),
    ],
  ])('decodes a %s text file to Unicode', async (_name, bytes) => {
    const result = await extractor.extractDocument({ bytes, fileName: 'notes.txt' });
    expect(result.kind).toBe('txt');
    expect(result.pages[0]?.text).toContain(french);
    expect(result.pages[0]?.text).toContain('\nPression: 5 bar.');
  });
});

describe('extractDocument: what it refuses', () => {
  it('refuses a PNG named .pdf by what the bytes are', async () => {
    await expect(
      extractor.extractDocument({ bytes: tinyPng, fileName: 'manual.pdf', contentType: 'application/pdf' }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      message: expect.stringMatching(/^Unsupported file type: image\/png/),
    });
  });

  it('refuses binary without a known signature and HTML pages', async () => {
    await expect(
      extractor.extractDocument({ bytes: Buffer.from([1, 2, 0, 3, 0, 0, 9]), fileName: 'x.txt' }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      message: expect.stringMatching(/^Unsupported file type: application\/octet-stream/),
    });
    await expect(
      extractor.extractDocument({
        bytes: Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'),
        fileName: 'index',
      }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      message: expect.stringMatching(/^Unsupported file type: text\/html/),
    });
  });

  it('calls a zero-byte file empty', async () => {
    await expect(extractor.extractDocument({ bytes: Buffer.alloc(0), fileName: 'manual.pdf' })).rejects.toMatchObject({
      code: 'EMPTY_DOCUMENT',
      message: 'PDF content is empty',
    });
    await expect(extractor.extractDocument({ bytes: Buffer.alloc(0), fileName: 'notes' })).rejects.toMatchObject({
      code: 'EMPTY_DOCUMENT',
      message: 'The file is empty',
    });
  });

  it('calls a PDF with blank pages, and a blank text file, empty', async () => {
    await expect(
      extractor.extractDocument({ bytes: await makeBlankPdf(), fileName: 'blank.pdf' }),
    ).rejects.toMatchObject({ code: 'EMPTY_DOCUMENT', message: 'PDF content is empty' });
    await expect(
      extractor.extractDocument({ bytes: Buffer.from(' \n\t\n'), fileName: 'blank.txt' }),
    ).rejects.toMatchObject({ code: 'EMPTY_DOCUMENT', message: 'Text content is empty' });
  });

  it('says a scanned PDF has no text layer', async () => {
    await expect(
      extractor.extractDocument({ bytes: await makeImageOnlyPdf(), fileName: 'scan.pdf' }),
    ).rejects.toMatchObject({
      code: 'NO_TEXT_LAYER',
      message: 'This PDF has no text layer (scanned images); it cannot be searched',
    });
  });

  it('says a PDF that needs a password is password-protected (checked-in fixture made by qpdf)', async () => {
    await expect(
      extractor.extractDocument({ bytes: await fixture('encrypted.pdf'), fileName: 'locked.pdf' }),
    ).rejects.toMatchObject({ code: 'DOCUMENT_ENCRYPTED', message: 'This PDF is password-protected' });
  });

  it('says a truncated PDF cannot be read', async () => {
    const whole = await makeManualPdf(3);
    for (const bytes of [whole.subarray(0, whole.length / 2), whole.subarray(0, 40)]) {
      await expect(extractor.extractDocument({ bytes, fileName: 'broken.pdf' })).rejects.toMatchObject({
        code: 'UNREADABLE_DOCUMENT',
        message: 'The file could not be read as a PDF',
      });
    }
  });

  it('says a damaged Word file cannot be read', async () => {
    const doc = await fixture('sample.doc');
    await expect(
      extractor.extractDocument({ bytes: doc.subarray(0, 1024), fileName: 'broken.doc' }),
    ).rejects.toMatchObject({
      code: 'UNREADABLE_DOCUMENT',
      message: 'The file could not be read as a Word (.doc) document',
    });
  });
});

describe('extractDocument: limits', () => {
  it('stops a worker at the time limit, frees its slot, and the server keeps extracting', async () => {
    const hasty = createExtractor({ concurrency: 1, timeoutMs: 5 });
    try {
      const bytes = await makeManualPdf(3);
      for (let i = 0; i < 2; i++) {
        // Twice on a one-slot pool: a leaked slot would make the second call hang.
        await expect(hasty.extractDocument({ bytes, fileName: 'slow.pdf' })).rejects.toMatchObject({
          code: 'DOCUMENT_TOO_COMPLEX',
          message: 'Text extraction was stopped: the document took longer than 5 ms to read',
        });
      }
      const result = await extractor.extractDocument({ bytes, fileName: 'slow.pdf' });
      expect(result.pages).toHaveLength(3);
    } finally {
      await hasty.close();
    }
  });

  it('stops a worker that runs out of memory', async () => {
    const tight = createExtractor({ maxMemoryMb: 4 });
    try {
      await expect(
        tight.extractDocument({ bytes: await makeManualPdf(200), fileName: 'big.pdf' }),
      ).rejects.toMatchObject({
        code: 'DOCUMENT_TOO_COMPLEX',
        message: 'Text extraction was stopped: the document needed more than 4 MB of memory to read',
      });
    } finally {
      await tight.close();
    }
  });

  it('stops a decompression bomb whose memory lies outside the V8 heap', async () => {
    const bytes = await makeDocxBomb(1024);
    const guarded = createExtractor({ maxMemoryMb: 128 });
    let peak = 0;
    const before = process.memoryUsage.rss();
    const probe = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss() - before)), 20);
    try {
      await expect(guarded.extractDocument({ bytes, fileName: 'bomb.docx' })).rejects.toMatchObject({
        code: 'DOCUMENT_TOO_COMPLEX',
        message: 'Text extraction was stopped: the document needed more than 128 MB of memory to read',
      });
      // Unguarded, this file takes the process past 1 GB (inflated XML) before failing.
      expect(peak).toBeLessThan(700 * 1024 * 1024);
    } finally {
      clearInterval(probe);
      await guarded.close();
    }
  }, 60_000);

  it('queues beyond its concurrency and refuses beyond its queue', async () => {
    const small = createExtractor({ concurrency: 1, maxQueued: 1 });
    try {
      const bytes = Buffer.from('hello');
      const results = await Promise.allSettled(
        [1, 2, 3].map(() => small.extractDocument({ bytes, fileName: 'a.txt' })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'SERVICE_UNAVAILABLE' } });
    } finally {
      await small.close();
    }
  });

  it('reads a 1,000-page PDF', async () => {
    const bytes = await makeManualPdf(1000);
    const started = performance.now();
    const result = await extractor.extractDocument({ bytes, fileName: 'huge.pdf' });
    const seconds = (performance.now() - started) / 1000;
    expect(result.pages).toHaveLength(1000);
    expect(result.pages[999]).toEqual({ page: 1000, text: manualPageLines(1000).join('\n') });
    console.info(`1,000-page PDF (${(bytes.length / 1024).toFixed(0)} KB): ${seconds.toFixed(2)} s`);
  }, 120_000);
});
