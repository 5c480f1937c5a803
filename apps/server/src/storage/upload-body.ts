import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import { SNIFF_BYTES } from './file-type.js';

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** The most of a refused body's rest read (and dropped) so that its client hears why. */
export const DISCARD_BOUND_BYTES = 2 * MAX_UPLOAD_BYTES;

/** SPEC.md section 5: the size in MB with two decimals, as the client words it. */
export function fileTooLarge(bytes: number): ApiError {
  return new ApiError(
    'PAYLOAD_TOO_LARGE',
    `File size (${(bytes / 1024 / 1024).toFixed(2)} MB) exceeds maximum allowed size (50MB)`,
  );
}

export interface UploadBody {
  /** The first bytes (up to SNIFF_BYTES, fewer for a smaller file), read before anything is written. */
  head: Buffer;
  /** The whole file, head included; fails past MAX_UPLOAD_BYTES. */
  body: Readable;
  /** Bytes read so far; the file's size once `body` has ended. */
  bytes(): number;
  /** Why the upload itself failed, if it did. A driver may echo it as an error of its own. */
  failure(): ApiError | undefined;
}

/**
 * Reads a file part for a driver without holding it in memory: its first bytes up front
 * (for the type), then the rest as it arrives, counted against the size limit.
 */
export async function openUploadBody(file: Readable): Promise<UploadBody> {
  const source = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let bytes = 0;
  let failure: ApiError | undefined;
  const fail = (error: ApiError) => {
    failure ??= error;
    return failure;
  };
  const next = async () => {
    try {
      const result = await source.next();
      if (!result.done) bytes += result.value.length;
      if (bytes > MAX_UPLOAD_BYTES) throw fail(fileTooLarge(bytes));
      return result;
    } catch (error) {
      // A client that goes away mid-upload, or a body cut short, ends the file stream with an error.
      throw error instanceof ApiError
        ? error
        : fail(
            new ApiError(
              'VALIDATION_ERROR',
              'Invalid request parameters: the upload ended before the file was complete',
            ),
          );
    }
  };

  const first: Buffer[] = [];
  let ended = false;
  while (!ended && bytes < SNIFF_BYTES) {
    const result = await next();
    if (result.done) ended = true;
    else first.push(result.value);
  }
  async function* rest() {
    try {
      yield* first;
      if (ended) return;
      for (let result = await next(); !result.done; result = await next()) yield result.value;
    } finally {
      await source.return?.(); // a driver that stops reading releases the request
    }
  }
  return {
    head: Buffer.concat(first),
    body: Readable.from(rest(), { objectMode: false }),
    bytes: () => bytes,
    failure: () => failure,
  };
}

/**
 * Reads and drops the rest of a refused request body, up to DISCARD_BOUND_BYTES. A
 * client that sends on while the answer comes (fetch does) is reset, without reading the
 * answer, when the socket closes on bytes left unread. False when the body is larger than
 * the bound: then the connection has to close.
 */
export async function discardRest(request: IncomingMessage, declaredBytes: number | undefined): Promise<boolean> {
  if (request.complete) return true;
  if (declaredBytes !== undefined && declaredBytes > DISCARD_BOUND_BYTES) return false;
  request.unpipe(); // the multipart parser reads no more
  let bytes = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > DISCARD_BOUND_BYTES) return false;
    }
    return true;
  } catch {
    return false; // the client went away
  }
}
