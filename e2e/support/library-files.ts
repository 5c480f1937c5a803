// The manuals the library tests upload, made in the test: a real three-page PDF whose
// page 3 holds the answer the chat must cite, a Word file, plain text and a broken PDF.
import { makeDocx, makePdf } from '../../apps/server/src/data/fixtures/make-documents.js';
import type { FileInput } from '../pages/library-page.js';

export const RTU_TITLE = 'RTU-500 Rooftop Unit Service Manual';
export const RTU_FAULT = 'Fault E7 means the condenser fan motor is locked out';

export async function rtuManualPdf(name = 'rtu-500-service.pdf'): Promise<FileInput> {
  const buffer = await makePdf([
    [RTU_TITLE, 'HVAC rooftop unit for commercial buildings', 'Part No. PN-4471-B', 'Published: March 2021'],
    ['Page 2: Installation', 'Mount the rooftop unit on a level curb and connect the thermostat wiring.'],
    ['Page 3: Fault codes', `${RTU_FAULT}. Replace the fan capacitor and reset the controller.`, 'Fault E8 means low refrigerant charge.'],
  ]);
  return { name, mimeType: 'application/pdf', buffer };
}

export function textFile(name: string, lines: string[]): FileInput {
  return { name, mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n'), 'utf8') };
}

export async function wordFile(name: string, paragraphs: string[]): Promise<FileInput> {
  return { name, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: await makeDocx(paragraphs) };
}

/** Starts like a PDF, so storage takes it as one, but its text cannot be read. */
export function brokenPdf(name: string): FileInput {
  return { name, mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 0x5a)]) };
}

/** A long PDF (600 pages of filler), slow to read. */
export function fillerPdf(): Promise<Buffer> {
  return makePdf(Array.from({ length: 600 }, (_, i) => Array.from({ length: 40 }, (_, line) => `Filler page ${i + 1}, line ${line + 1}: nothing to see here.`)));
}

/**
 * Keeps the server's one extraction worker (EXTRACT_CONCURRENCY=1) busy with `filler` for a
 * moment, so a manual saved meanwhile waits its turn and is seen 'Processing content...'.
 * Resolves with how long the server took.
 */
export async function occupyExtractor(serverUrl: string, serviceKey: string, filler: Buffer): Promise<number> {
  const started = Date.now();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(filler)], { type: 'application/pdf' }), 'filler.pdf');
  const response = await fetch(`${serverUrl}/api/data/fieldassist/extract-from-blob`, { method: 'POST', headers: { authorization: `Bearer ${serviceKey}` }, body: form });
  if (!response.ok) throw new Error(`the filler extraction answered ${response.status}`);
  return Date.now() - started;
}
