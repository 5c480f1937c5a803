import type { Readable } from 'node:stream';
import { z } from 'zod';
import { type Caller, requireSignedIn } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import { authorizeReplace, authorizeWrite, type SignedInCaller } from './access.js';
import { publicUrlOf, removeBytes, type StorageContext } from './context.js';
import { detectFile } from './file-type.js';
import { saveObject } from './objects.js';
import { lastSegment, newStorageKey, pathProblem, withLastSegment } from './paths.js';
import { fileTooLarge, MAX_UPLOAD_BYTES, openUploadBody } from './upload-body.js';

/** One part of an upload form, in the order the client sent them. */
export type UploadPart =
  { kind: 'field'; name: string; value: unknown } | { kind: 'file'; name: string; fileName: string; stream: Readable };

export interface UploadInput {
  caller: Caller;
  parts: AsyncIterable<UploadPart>;
  /** The request's Content-Length, when it has one: a body that is surely too large is refused unread. */
  declaredBytes?: number;
}

// Boundaries and the small fields around the file.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const invalid = (detail?: string) =>
  new ApiError('VALIDATION_ERROR', detail ? `Invalid request parameters: ${detail}` : 'Invalid request parameters');

const ZUploadOptions = z.object({ upsert: z.boolean().optional() });

interface UploadForm {
  path?: string;
  upsert: boolean;
}

interface WrittenFile {
  key: string;
  head: Buffer;
  size: number;
}

/**
 * Stores an uploaded file at a logical path (PLATFORM_API.md 4.1): streamed to the driver
 * under a fresh key, never held whole in memory, whichever order the `file` and `path`
 * parts come in. The path's extension is corrected to the detected type. Whatever fails
 * (too large, bad path, refused, existing path without upsert, a client gone mid-upload),
 * the bytes written are removed. Throws VALIDATION_ERROR, UNAUTHORIZED, FORBIDDEN, CONFLICT,
 * PAYLOAD_TOO_LARGE.
 */
export async function uploadFile(
  ctx: StorageContext,
  { caller, parts, declaredBytes }: UploadInput,
): Promise<{ publicUrl: string; path: string }> {
  requireSignedIn(caller);
  if (declaredBytes !== undefined && declaredBytes > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES)
    throw fileTooLarge(declaredBytes);
  const form: UploadForm = { upsert: false };
  let written: WrittenFile | undefined;
  let saved = false;
  try {
    for await (const part of parts) {
      if (part.kind === 'field') readField(ctx, form, part, caller);
      else if (part.name !== 'file' || written) throw invalid('send one file, in the field "file"');
      else written = await writeFile(ctx, part, form.path);
    }
    if (!written || form.path === undefined) throw invalid();
    const detected = await detectFile(written.head, lastSegment(form.path));
    const path = withLastSegment(form.path, detected.fileName);
    const problem = pathProblem(path);
    if (problem) throw invalid(`path ${problem}`);
    const { replacedKey } = await saveObject(ctx.pool, {
      object: {
        path,
        key: written.key,
        size: written.size,
        contentType: detected.contentType,
        fileName: detected.fileName,
        ownerId: caller.kind === 'user' ? caller.userId : null,
        ownerEmail: caller.kind === 'user' ? caller.email : null,
      },
      upsert: form.upsert,
      mayReplace: (existing) => authorizeReplace(caller, existing),
    });
    saved = true;
    if (replacedKey) await removeBytes(ctx, replacedKey);
    return { publicUrl: publicUrlOf(ctx, written.key), path };
  } finally {
    if (written && !saved) await removeBytes(ctx, written.key);
  }
}

function readField(
  ctx: StorageContext,
  form: UploadForm,
  part: Extract<UploadPart, { kind: 'field' }>,
  caller: SignedInCaller,
) {
  const { name, value } = part;
  if (name === 'path') {
    if (typeof value !== 'string' || value === '' || form.path !== undefined) throw invalid();
    const problem = pathProblem(value);
    if (problem) throw invalid(`path ${problem}`);
    // Refused before a byte of the file is stored (when the path comes first).
    authorizeWrite(ctx.rules, caller, value);
    form.path = value;
  } else if (name === 'options') {
    const options = ZUploadOptions.safeParse(typeof value === 'string' ? parseJson(value) : value);
    if (!options.success) throw invalid('options must be JSON like {"upsert": true}');
    form.upsert = options.data.upsert ?? form.upsert;
  } else if (name === 'upsert') {
    form.upsert = value === 'true' || value === true;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function writeFile(
  ctx: StorageContext,
  part: Extract<UploadPart, { kind: 'file' }>,
  path: string | undefined,
): Promise<WrittenFile> {
  const upload = await openUploadBody(part.stream);
  // The key carries the best name known now; the row gets the final one once the path is known.
  const { fileName, contentType } = await detectFile(
    upload.head,
    path !== undefined ? lastSegment(path) : part.fileName || 'file',
  );
  const key = newStorageKey(fileName);
  try {
    await ctx.storage.write(key, upload.body, contentType);
  } catch (error) {
    part.stream.destroy(); // a driver that failed before reading would leave the request waiting
    throw upload.failure() ?? error;
  }
  return { key, head: upload.head, size: upload.bytes() };
}
