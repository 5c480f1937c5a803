import type pg from 'pg';
import type { PageText, TextChunk } from '../../data/chunk.js';
import { CHUNKING_VERSION } from '../../data/chunk-sections.js';
import type { ExtractDocument } from '../../data/extract.js';
import { transaction } from '../../db/pool.js';
import { ApiError } from '../../errors.js';
import type { ProductEventBus } from '../events.js';
import { deleteFileText, findFileText } from '../manuals/texts.js';
import { type ClaimedJob, completeJob, failJob, releaseJob } from './queue.js';

export interface ManualFiles {
  readByPublicUrl(url: string): Promise<{ bytes: Buffer; contentType: string; fileName: string } | undefined>;
  removeByPublicUrl(url: string): Promise<unknown>;
}

export interface IngestionDeps {
  pool: pg.Pool;
  files: ManualFiles;
  extract: ExtractDocument;
  /** Cuts the pages into chunks; a chunk may carry its section's heading. */
  chunk: (pages: PageText[]) => (TextChunk & { heading?: string })[];
  events: ProductEventBus;
  /** The server's log: a manual ingested is news (info), a worker's hiccup a warning, an unexpected failure an error. */
  log: { info(message: string): void; warn(message: string): void; error(message: string): void };
}

type Status = 'pending' | 'processing' | 'ready' | 'failed';

async function setStatus(
  deps: IngestionDeps,
  manualId: string,
  status: Status,
  extra: { error?: string | null; pageCount?: number | null } = {},
) {
  await deps.pool.query(
    'UPDATE manuals SET processing_status = $2, processing_error = $3, page_count = COALESCE($4, page_count) WHERE id = $1',
    [manualId, status, extra.error ?? null, extra.pageCount ?? null],
  );
  deps.events.emit('manual.status', {
    manualId,
    status,
    error: extra.error ?? null,
    pageCount: extra.pageCount ?? null,
  });
}

/** Marks the manual as being processed, only while this worker holds its job; false when it does not. */
async function startProcessing(deps: IngestionDeps, job: ClaimedJob, workerId: string): Promise<boolean> {
  const { rowCount } = await deps.pool.query(
    `UPDATE manuals SET processing_status = 'processing', processing_error = NULL
     WHERE id = $1 AND EXISTS (SELECT 1 FROM ingestion_jobs WHERE id = $2 AND locked_by = $3 AND status = 'running')`,
    [job.manualId, job.id, workerId],
  );
  if (rowCount)
    deps.events.emit('manual.status', { manualId: job.manualId, status: 'processing', error: null, pageCount: null });
  return Boolean(rowCount);
}

/**
 * Turns a manual's file into manualContent chunks (page by page, about 1,000 characters each)
 * indexed for full-text search. The chunks replace any earlier ones and the job is marked
 * done in one transaction, and only while this worker still holds the lease: a job run twice
 * (a server killed mid-way) still leaves exactly one set of chunks, and a worker that lost its
 * lease changes nothing. With `stopping` aborted (server shutdown), a cut-off job is handed back
 * for the next worker without counting as a failed attempt.
 */
export async function ingestManual(
  deps: IngestionDeps,
  job: ClaimedJob,
  workerId: string,
  stopping?: AbortSignal,
): Promise<void> {
  const { rows } = await deps.pool.query<{ id: string; file_url: string; file_name: string; file_type: string | null }>(
    'SELECT id, file_url, file_name, file_type FROM manuals WHERE id = $1',
    [job.manualId],
  );
  const manual = rows[0];
  if (!manual) return; // deleted meanwhile: its job went with it
  // A refresh leaves the manual ready, and searchable on its old chunks, until the new ones are in.
  if (!job.refresh && !(await startProcessing(deps, job, workerId))) return;
  try {
    // The text read when the file was uploaded, if it was kept: a file's text is read once.
    // (It is not kept for a file with scanned pages: those are read by OCR here.)
    const saved = await findFileText(deps.pool, manual.file_url);
    const { pages, ocrPages } = saved ? { pages: saved, ocrPages: [] } : await extractText(deps, manual, job.refresh);
    const chunks = deps.chunk(pages);
    const stored = await transaction(deps.pool, async (client) => {
      if (!(await completeJob(client, job, workerId))) throw new LeaseLost();
      await client.query('DELETE FROM manual_content WHERE manual_id = $1', [manual.id]);
      // chunk_index counts from 0, as chunkText numbers the chunks (SPEC.md: chunkIndex 0).
      await client.query(
        `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, heading)
         SELECT $1 || '_' || n, $1, text, n, page, heading FROM unnest($2::text[], $3::int[], $4::int[], $5::text[]) AS c(text, page, n, heading)`,
        [
          manual.id,
          chunks.map((c) => c.text),
          chunks.map((c) => c.page),
          chunks.map((c) => c.index),
          chunks.map((c) => c.heading ?? ''),
        ],
      );
      await deleteFileText(client, manual.file_url);
      await client.query(
        "UPDATE manuals SET processing_status = 'ready', processing_error = NULL, page_count = $2, ocr_pages = $3, figure_pages = $4, figure_boxes = $5, chunked_with = $6 WHERE id = $1",
        [
          manual.id,
          pages.length,
          ocrPages,
          pages.filter((p) => p.figure).map((p) => p.page),
          JSON.stringify(
            Object.fromEntries(
              pages.flatMap((p) => (p.figure ? [[p.page, p.figure.map((n) => Math.round(n * 10) / 10)]] : [])),
            ),
          ),
          CHUNKING_VERSION,
        ],
      );
      return chunks.length;
    });
    deps.events.emit('manual.status', { manualId: manual.id, status: 'ready', error: null, pageCount: pages.length });
    deps.log.info(
      `${job.refresh ? 'read again' : 'ingested'} manual ${manual.id}: ${pages.length} pages, ${stored} chunks`,
    );
  } catch (error) {
    if (error instanceof LeaseLost) return; // another worker owns the job now
    if (stopping?.aborted) {
      if ((await releaseJob(deps.pool, job, workerId)) && !job.refresh) await setStatus(deps, manual.id, 'pending');
      return;
    }
    // A file that cannot be read will not read better later; anything else is retried.
    const permanent = error instanceof ApiError && error.status < 500;
    const reason = error instanceof ApiError ? error.message : 'Content extraction failed';
    if (!(error instanceof ApiError))
      deps.log.error(`ingestion of manual ${manual.id} failed: ${(error as Error).stack ?? error}`);
    const outcome = await failJob(deps.pool, job, workerId, reason, permanent);
    if (outcome === 'lost') return;
    if (job.refresh) {
      // Its old chunks still answer: the manual stays ready.
      deps.log.warn(`manual ${manual.id} could not be read again (${reason}); it keeps its earlier chunks`);
      return;
    }
    await setStatus(deps, manual.id, outcome === 'failed' ? 'failed' : 'pending', {
      error: outcome === 'failed' ? reason : null,
    });
  }
}

/**
 * Reads the manual's file; scanned pages are read by OCR one by one, each one announced for the
 * card's progress, except in a refresh: the card would show a ready manual as being processed.
 */
async function extractText(
  deps: IngestionDeps,
  manual: { id: string; file_url: string; file_name: string },
  refresh: boolean,
) {
  const file = await deps.files.readByPublicUrl(manual.file_url);
  if (!file) throw new ApiError('NOT_FOUND', "The manual's file could not be found");
  const onProgress = ({ done, total }: { done: number; total: number }) =>
    refresh ||
    deps.events.emit('manual.progress', { manualId: manual.id, scannedPagesRead: done, scannedPages: total });
  return deps.extract(
    { bytes: file.bytes, fileName: manual.file_name || file.fileName, contentType: file.contentType },
    { readScans: { onProgress } },
  );
}

class LeaseLost extends Error {}
