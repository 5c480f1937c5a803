// Real OCR (tesseract.js in the worker pool) of rendered photos and a scanned PDF.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractor } from '../extract.js';
import { makeImageOnlyPdf, makePdf } from '../fixtures/make-documents.js';
import { findSkew } from './deskew.js';
import { createOcr } from './index.js';
import { tesseractPaths } from './tesseract.js';
import { renderPhoto, renderTextlessPhoto } from './test-support/render-photo.js';
import { makeJpxScanPdf, makeScannedPdf } from './test-support/scanned-pdf.js';
import { SERVICE_MANUAL } from './test-support/service-manual.js';

const ocr = createOcr();
const extractor = createExtractor({}, ocr);
afterAll(async () => {
  await extractor.close();
  await ocr.close();
});

const nameplate = {
  style: 'plate',
  lines: ['NORDCOOL CHILLERS', 'MODEL KX-4410', 'S/N 7731-0B2293', '400V 3PH 50Hz', 'FAULT E7'],
  effects: { rotate: 4, blur: 1, brightness: 0.6, noise: 25, glare: 0.5, quality: 70 },
} as const;
const insideNodeModules = (path: string) => path.split(/[\\/]/).includes('node_modules');

describe('OCR with tesseract.js', () => {
  it('loads its worker, its wasm core and the English model from node_modules', () => {
    expect(
      insideNodeModules(tesseractPaths.langPath) && existsSync(join(tesseractPaths.langPath, 'eng.traineddata.gz')),
    ).toBe(true);
    expect(insideNodeModules(tesseractPaths.workerPath) && existsSync(tesseractPaths.workerPath)).toBe(true);
    expect(insideNodeModules(tesseractPaths.corePath)).toBe(true);
    expect(readdirSync(tesseractPaths.corePath).filter((file) => file.endsWith('.wasm')).length).toBeGreaterThan(0);
  });

  // Up to its child's own 60 s: a new process loading the OCR engine beside another test file.
  it('reads a skewed, dim, noisy nameplate in a process with no network at all', { timeout: 90_000 }, async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ocr-offline-'));
    try {
      const photo = join(folder, 'nameplate.jpg');
      await writeFile(photo, await renderPhoto(nameplate));
      // unshare -rn: a user and network namespace of its own, with no interface but a down loopback.
      const script = new URL('./test-support/read-offline.ts', import.meta.url).pathname;
      const { stdout } = await promisify(execFile)(
        'unshare',
        ['-rn', process.execPath, '--import', 'tsx', script, photo],
        { timeout: 60_000 },
      );
      const { text } = JSON.parse(stdout) as { text: string };
      expect(text).toContain('KX-4410');
      expect(text).toMatch(/FAULT E7/);
      expect(text).toMatch(/7731-0B2293|7731-082293/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reads an error display and a part label', async () => {
    const display = await renderPhoto({
      style: 'display',
      lines: ['ERR E4', 'LOW FLOW'],
      effects: { rotate: -3, blur: 1, glare: 0.4, noise: 20 },
    });
    expect(await ocr.readPhoto(display)).toBe('ERR E4\nLOW FLOW');
    const label = await renderPhoto({
      style: 'sticker',
      lines: ['SPARE PART', 'P/N PN-4471-B', 'MECHANICAL SEAL KIT'],
      effects: { shear: 0.12, blur: 0.8, brightness: 0.7 },
    });
    expect(await ocr.readPhoto(label)).toMatch(/PN-4471-B/);
  });

  it('finds how far a photo is tilted, to level its text lines before reading', async () => {
    for (const rotate of [-8, 0, 5]) {
      const photo = await renderPhoto({
        style: 'plate',
        lines: ['NORDCOOL CHILLERS', 'MODEL XR-200', 'S/N 4471-0B2293'],
        effects: { rotate, blur: 0.8 },
      });
      expect(Math.abs((await findSkew(photo)) + rotate)).toBeLessThanOrEqual(1);
    }
  });

  it('gives no text for a photo without any, rather than scraps of texture', async () => {
    expect(await ocr.readPhoto(await renderTextlessPhoto())).toBe('');
  });

  it('refuses bytes that are not an image', async () => {
    await expect(ocr.readPhoto(Buffer.from('%PDF-1.7 not a photo'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
    });
  });
});

describe('scanned PDFs', { timeout: 90_000 }, () => {
  it('reads the pages without a text layer by OCR, page by page with progress, and says which they were', async () => {
    const pdf = await makeScannedPdf(SERVICE_MANUAL.pages.map((page) => [...page]));
    const progress: { done: number; total: number }[] = [];
    const document = await extractor.extractDocument(
      { bytes: pdf, fileName: 'scan.pdf' },
      { readScans: { onProgress: (p) => progress.push(p) } },
    );
    expect(document.ocrPages).toEqual([1, 2, 3]);
    expect(progress).toEqual([
      { done: 0, total: 3 },
      { done: 1, total: 3 },
      { done: 2, total: 3 },
      { done: 3, total: 3 },
    ]);
    const text = document.pages.map((page) => page.text).join('\n');
    expect(text).toMatch(/Error E4 Low evaporator water flow/);
    expect(text).toMatch(/PN-7720-G/);
    expect(document.pages[2]!.text).toMatch(/Replace the filter drier every year/);
  });

  it('reads a scan whose image is JPEG 2000 (pdf.js decodes it with its wasm OpenJPEG), not a blank page', async () => {
    const document = await extractor.extractDocument(
      { bytes: await makeJpxScanPdf(), fileName: 'archive-scan.pdf' },
      { readScans: {} },
    );
    expect(document.ocrPages).toEqual([1]);
    expect(document.pages[0]!.text).toMatch(/PN-3390-K/);
  });

  it('keeps the text layer of text pages and reads only the scanned ones', async () => {
    const scanned = await makeScannedPdf([['Wiring diagram legend. K1 compressor contactor, F3 control fuse 2 A.']]);
    const text = await makePdf([['Section 1 Safety', 'Isolate the supply before opening any panel of the unit.']]);
    const { PDFDocument } = await import('pdf-lib');
    const merged = await PDFDocument.create();
    for (const source of [text, scanned]) {
      const from = await PDFDocument.load(source);
      for (const page of await merged.copyPages(from, from.getPageIndices())) merged.addPage(page);
    }
    const document = await extractor.extractDocument(
      { bytes: Buffer.from(await merged.save()), fileName: 'mixed.pdf' },
      { readScans: {} },
    );
    expect(document.ocrPages).toEqual([2]);
    expect(document.pages[0]).toEqual({
      page: 1,
      text: 'Section 1 Safety\nIsolate the supply before opening any panel of the unit.',
    });
    expect(document.pages[1]!.text).toMatch(/compressor contactor/);
  });

  it('still refuses a scan without readScans, and one whose images hold no text with it', async () => {
    await expect(
      extractor.extractDocument({ bytes: await makeImageOnlyPdf(), fileName: 'scan.pdf' }),
    ).rejects.toMatchObject({ code: 'NO_TEXT_LAYER' });
    await expect(
      extractor.extractDocument({ bytes: await makeImageOnlyPdf(), fileName: 'scan.pdf' }, { readScans: {} }),
    ).rejects.toMatchObject({
      code: 'NO_TEXT_LAYER',
      message: 'No text could be read from this PDF, not even by OCR of its scanned pages',
    });
  });
});
