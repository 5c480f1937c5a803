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
    [
      'Page 3: Fault codes',
      `${RTU_FAULT}. Replace the fan capacitor and reset the controller.`,
      'Fault E8 means low refrigerant charge.',
    ],
  ]);
  return { name, mimeType: 'application/pdf', buffer };
}

export function textFile(name: string, lines: string[]): FileInput {
  return { name, mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n'), 'utf8') };
}

export async function wordFile(name: string, paragraphs: string[]): Promise<FileInput> {
  return {
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    buffer: await makeDocx(paragraphs),
  };
}

/** Starts like a PDF, so storage takes it as one, but its text cannot be read. */
export function brokenPdf(name: string): FileInput {
  return {
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 0x5a)]),
  };
}

async function rawSql(serverUrl: string, serviceKey: string, route: 'sql' | 'batch', body: unknown) {
  const response = await fetch(`${serverUrl}/api/db/fieldassist/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`raw ${route} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { rows?: unknown[] };
}

/**
 * Holds back the server's ingestion for `seconds`: a transaction takes a SHARE lock on
 * manual_content, so a manual saved meanwhile waits, seen 'Processing content...', until its
 * chunks may be written. (The manual's text was read at upload: ingestion has nothing slow left
 * to wait on.) Resolves once the lock is held, with the moment it is let go.
 */
export async function holdIngestion(
  serverUrl: string,
  serviceKey: string,
  seconds: number,
): Promise<{ released: Promise<unknown> }> {
  const statements = [{ sql: 'LOCK TABLE manual_content IN SHARE MODE' }, { sql: `SELECT pg_sleep(${seconds})` }];
  const released = rawSql(serverUrl, serviceKey, 'batch', { statements });
  const held = `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'manual_content' AND l.mode = 'ShareLock' AND l.granted`;
  while (!(await rawSql(serverUrl, serviceKey, 'sql', { query: held })).rows?.length)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return { released };
}
