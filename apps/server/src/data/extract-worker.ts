import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ApiError } from '../errors.js';
import type { PageText } from './chunk.js';
import { type WorkerInput, type WorkerMessage, workerRole } from './extract-protocol.js';
import { readImageText, readScannedPage } from './ocr/read.js';
import { readPdfPages } from './pdf-text.js';
import type { DocumentKind } from './sniff.js';
import { cleanText, decodeText } from './text-decode.js';
import { readDocText, readDocxText } from './word-text.js';

const emptyMessages: Record<Exclude<DocumentKind, 'pdf'>, string> = {
  docx: 'Document content is empty',
  doc: 'Document content is empty',
  txt: 'Text content is empty',
};

/** Extracts the text of a file whose kind is already known, page by page, or reads an image by OCR. Runs inside the worker. */
export async function extractPages(
  input: WorkerInput,
  emit: (page: PageText) => void,
  emitScan: (page: number) => void,
): Promise<void> {
  if (input.kind === 'image') return emit({ page: 1, text: await readImageText(input.bytes) });
  if (input.kind === 'pdf-page')
    return emit({ page: input.page, text: await readScannedPage(input.bytes, input.page) });
  const { kind, bytes } = input;
  if (kind === 'pdf') return readPdfPages(bytes, emit, emitScan, { scansRead: input.readScans });
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const raw =
    kind === 'docx' ? await readDocxText(buffer) : kind === 'doc' ? await readDocText(buffer) : decodeText(buffer);
  // Word and text files have no pages: the whole text is page 1.
  const text = cleanText(raw);
  if (!text) throw new ApiError('EMPTY_DOCUMENT', emptyMessages[kind]);
  emit({ page: 1, text });
}

/** Serves one extraction at a time for the pool, until the pool terminates the worker. */
function serve(port: NonNullable<typeof parentPort>) {
  const post = (message: WorkerMessage) => port.postMessage(message);
  port.on('message', async (input: WorkerInput) => {
    try {
      await extractPages(
        input,
        (page) => post({ type: 'page', page }),
        (page) => post({ type: 'scan', page }),
      );
      post({ type: 'done' });
    } catch (error) {
      if (error instanceof ApiError) post({ type: 'error', code: error.code, message: error.message });
      else post({ type: 'error', code: null, message: error instanceof Error ? error.message : String(error) });
    }
  });
}

const isOurWorker = !isMainThread && (workerData as { role?: string } | null)?.role === workerRole;
if (isOurWorker && parentPort) serve(parentPort);
