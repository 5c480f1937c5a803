import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Manual, UploadedManualFile } from '@fieldassist/client/manuals';
import { canDeleteManuals, canWriteLibrary } from '@fieldassist/client/roles';
import type pg from 'pg';
import type { AiProvider } from '../../ai/provider.js';
import { type Caller, requireSignedIn } from '../../auth/caller.js';
import type { PageText } from '../../data/chunk.js';
import type { ExtractDocument } from '../../data/extract.js';
import type { AfterInsert } from '../../db/rest/policy.js';
import { transaction } from '../../db/pool.js';
import { ApiError } from '../../errors.js';
import type { FileStore } from '../../storage/index.js';
import { topFolder } from '../../storage/paths.js';
import { enqueueManuals } from '../ingestion/queue.js';
import { LIBRARY_FOLDER } from './file-access.js';
import { knownValue, type ManualMetadata, titleFromFileName } from './file-name.js';
import { readManualMetadata } from './metadata.js';
import { deleteFileText, saveFileText } from './texts.js';
import { manualVisibleTo } from './visibility.js';

export interface ManualsDeps {
  pool: pg.Pool;
  files: Pick<FileStore, 'uploadFile' | 'readByPublicUrl' | 'findByPath' | 'removeFiles'>;
  extract: ExtractDocument;
  ai: AiProvider;
  log: (message: string) => void;
}

type LibraryWriter = Extract<Caller, { kind: 'user' | 'service' }>;

function requireLibraryWriter(caller: Caller): LibraryWriter {
  requireSignedIn(caller);
  if (caller.kind === 'user' && !canWriteLibrary(caller.role))
    throw new ApiError('FORBIDDEN', 'You do not have permission to upload manuals');
  return caller;
}

/** Checked before the body is read, so a caller who may not upload learns nothing from a 400. */
export const authorizeLibraryWrite = (caller: Caller) => void requireLibraryWriter(caller);

// Storage paths allow letters, digits and a little punctuation. The time keeps them unique as a
// folder, not a prefix: the last segment is the stored file's name, which a download is called
// (issue 18: no more `1795474699249_gnuplot.pdf`).
const libraryPath = (fileName: string) =>
  `${LIBRARY_FOLDER}/${Date.now()}/${fileName.replace(/[^\p{L}\p{N} ._()-]+/gu, '_').trim() || 'manual'}`;
/** A manual's file type is the media type alone (text/plain, not text/plain; charset=utf-8). */
const mediaType = (contentType: string) => contentType.split(';')[0]!.trim();

export const SCANNED_NOTICE =
  'This PDF is scanned pages only: its text will be read by OCR while the manual is processed, so its details come from the file name';

/**
 * Stores a manual's file in the library, reads its text once (kept for its ingestion) and reads
 * its metadata from that text (SPEC.md section 4, single and bulk upload). A file whose text
 * cannot be read is kept, with its metadata from the file name and the reason in `unreadable`;
 * a PDF of scanned pages only is kept likewise, with `notice` saying OCR reads it at ingestion.
 * Throws UNAUTHORIZED, FORBIDDEN and the storage upload's errors (VALIDATION_ERROR, PAYLOAD_TOO_LARGE).
 */
export async function uploadManualFile(
  deps: ManualsDeps,
  opts: { caller: Caller; fileName: string; stream: Readable; declaredBytes?: number },
): Promise<UploadedManualFile> {
  const caller = requireLibraryWriter(opts.caller);
  const fileName = opts.fileName || 'manual';
  const parts = (async function* () {
    yield { kind: 'field' as const, name: 'path', value: libraryPath(fileName) };
    yield { kind: 'file' as const, name: 'file', fileName, stream: opts.stream };
  })();
  const { publicUrl, path } = await deps.files.uploadFile({ caller, parts, declaredBytes: opts.declaredBytes });
  const stored = await deps.files.readByPublicUrl(publicUrl);
  if (!stored) throw new ApiError('NOT_FOUND', 'File not found'); // removed between two statements
  let pages: PageText[] = [];
  let unreadable: string | undefined;
  let notice: string | undefined;
  try {
    const document = await deps.extract({
      bytes: stored.bytes,
      fileName: stored.fileName,
      contentType: stored.contentType,
    });
    pages = document.pages;
    // Scanned pages are read by OCR at ingestion, not here: such a file's text is not complete yet.
    if (document.scannedPages.length === 0) await saveFileText(deps.pool, publicUrl, pages);
  } catch (error) {
    // A PDF of scanned pages only is read by OCR at ingestion: kept, and the user told so. Any
    // other file that cannot be read is the user's to know about; a busy extractor is left to ingestion.
    if (error instanceof ApiError && error.code === 'NO_TEXT_LAYER') notice = SCANNED_NOTICE;
    else if (error instanceof ApiError && error.status < 500) unreadable = error.message;
    else deps.log(`reading the text of ${path} failed; its ingestion will try again: ${(error as Error).message}`);
  }
  const text = pages.map((page) => page.text).join('\n\n');
  const metadata = await readManualMetadata({ ai: deps.ai, text, fileName, log: deps.log });
  return {
    path,
    fileUrl: publicUrl,
    fileName,
    fileSize: stored.size,
    fileType: mediaType(stored.contentType),
    metadata,
    ...(unreadable && { unreadable }),
    ...(notice && { notice }),
  };
}

export interface SaveManualInput extends Partial<ManualMetadata> {
  path: string;
  fileName?: string;
  versionId: string;
  description?: string;
  tagIds: string[];
}

/** The file the caller uploaded to the library (or any, for an admin or the service key); else NOT_FOUND. */
async function ownLibraryFile(deps: ManualsDeps, caller: LibraryWriter, path: string) {
  const object = await deps.files.findByPath(path);
  const mayUse =
    object &&
    topFolder(object.path) === LIBRARY_FOLDER &&
    (caller.kind === 'service' || caller.role === 'admin' || object.ownerId === caller.userId);
  if (!mayUse) throw new ApiError('NOT_FOUND', 'File not found');
  return object;
}

/**
 * Saves a manual for an uploaded file with its tags, all in one transaction, and queues its
 * ingestion in that same transaction (SPEC.md section 4: Save Manual). 'Unknown' and blank
 * values are saved as absent; the title then comes from the file name.
 * Throws UNAUTHORIZED, FORBIDDEN, NOT_FOUND (not the caller's upload), CONFLICT (unknown version or tag).
 */
export async function saveManual(deps: ManualsDeps, opts: { caller: Caller } & SaveManualInput): Promise<Manual> {
  const caller = requireLibraryWriter(opts.caller);
  const file = await ownLibraryFile(deps, caller, opts.path);
  const fileName = opts.fileName?.trim() || file.fileName;
  const id = `manual_${randomBytes(16).toString('hex')}`;
  return transaction(deps.pool, async (client) => {
    const { rows } = await client.query<Manual>(
      `INSERT INTO manuals (id, version_id, title, file_url, file_name, file_size, file_type, description, document_type, technology, date_published, part_number, uploaded_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'manual', $9, $10, $11, $12)
       RETURNING id, version_id AS "versionId", title, file_url AS "fileUrl", file_name AS "fileName", file_size::float8 AS "fileSize", file_type AS "fileType",
         description, document_type AS "documentType", technology, date_published AS "datePublished", part_number AS "partNumber", uploaded_by AS "uploadedBy",
         processing_status AS "processingStatus", processing_error AS "processingError", page_count AS "pageCount", created_at AS "createdAt", updated_at AS "updatedAt"`,
      [
        id,
        opts.versionId,
        knownValue(opts.title) ?? titleFromFileName(fileName),
        file.publicUrl,
        fileName,
        file.size,
        mediaType(file.contentType),
        knownValue(opts.description),
        knownValue(opts.technology),
        knownValue(opts.datePublished),
        knownValue(opts.partNumber),
        caller.kind === 'user' ? caller.email : null,
      ],
    );
    const tagIds = [...new Set(opts.tagIds)];
    await client.query(
      'INSERT INTO manual_tags (id, manual_id, tag_id) SELECT md5(random()::text || t), $1, t FROM unnest($2::text[]) AS t',
      [id, tagIds],
    );
    await enqueueManuals(client, [id]);
    return rows[0]!;
  });
}

/** The REST hook of app.ts: a manual inserted through the generic REST API (the Blink client) is queued too. */
export const queueManualsInsertedByRest: AfterInsert = async (client, { table, ids }) => {
  if (table === 'manuals') await enqueueManuals(client, ids);
};

/**
 * Removes an uploaded file nobody will save (review cancelled, a failed bulk step) with the
 * text read from it. Throws NOT_FOUND (not the caller's upload), CONFLICT (a manual uses it).
 */
export async function discardUpload(
  deps: ManualsDeps,
  opts: { caller: Caller; path: string },
): Promise<{ removed: string[] }> {
  const caller = requireLibraryWriter(opts.caller);
  const file = await ownLibraryFile(deps, caller, opts.path);
  const { rowCount } = await deps.pool.query('SELECT 1 FROM manuals WHERE file_url = $1', [file.publicUrl]);
  if (rowCount) throw new ApiError('CONFLICT', 'The file belongs to a saved manual');
  await deleteFileText(deps.pool, file.publicUrl);
  return deps.files.removeFiles({ caller, paths: [file.path] });
}

/**
 * Deletes a manual (admins only, SPEC.md section 6) with its passages, tags and job; its file is
 * removed shortly after by the ingestion worker (migrations/004 collects it). A manual the caller
 * cannot see is NOT_FOUND, like a missing one. Throws UNAUTHORIZED, FORBIDDEN, NOT_FOUND.
 */
export async function deleteManual(deps: ManualsDeps, opts: { caller: Caller; id: string }): Promise<{ id: string }> {
  requireSignedIn(opts.caller);
  const role = opts.caller.kind === 'service' ? 'admin' : opts.caller.role;
  if (!canDeleteManuals(role)) throw new ApiError('FORBIDDEN', 'Only admins can delete manuals');
  const deleted = await transaction(deps.pool, async (client) => {
    // The job first, as ingestion locks it before the manual: a manual deleted while its chunks
    // are being written waits for them (then goes with them) instead of deadlocking.
    await client.query('SELECT 1 FROM ingestion_jobs WHERE manual_id = $1 FOR UPDATE', [opts.id]);
    return (
      await client.query<{ id: string }>(
        `DELETE FROM manuals WHERE id = $1 AND ${manualVisibleTo(role)} RETURNING id`,
        [opts.id],
      )
    ).rows[0];
  });
  if (!deleted) throw new ApiError('NOT_FOUND', 'Manual not found');
  return deleted;
}
