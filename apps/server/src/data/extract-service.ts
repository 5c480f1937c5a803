import { ApiError } from '../errors.js';
import { chunkText } from './chunk.js';
import type { DocumentFile, ExtractedDocument, Extractor } from './extract.js';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.js';

/** A file stored by this server, as the storage module reads it back from its public URL. */
export interface OwnFile {
  bytes: Buffer;
  fileName: string;
  contentType: string;
}

export interface ExtractionDeps {
  extractor: Extractor;
  /** This server's public origin; URLs under `${publicUrl}/files/` are its own stored files. */
  publicUrl: string;
  /** Reads one of this server's stored files by its public URL (storage's readByPublicUrl). */
  readOwnFile: (url: string) => Promise<OwnFile | undefined>;
  /** Limits and address policy of outbound fetches; the defaults allow public addresses only. */
  fetchOptions?: SafeFetchOptions;
}

export interface ExtractionOptions {
  chunking?: boolean;
  chunkSize?: number;
}

/** What both extract routes answer (PLATFORM_API.md section 6). */
export type ExtractionResult = { text: string } | { chunks: string[] };

function isOwnFileUrl(url: string, publicUrl: string): boolean {
  try {
    const target = new URL(url);
    return target.origin === new URL(publicUrl).origin && target.pathname.startsWith('/files/');
  } catch {
    return false;
  }
}

function present(document: ExtractedDocument, { chunking = false, chunkSize }: ExtractionOptions): ExtractionResult {
  if (!chunking) return { text: document.pages.map((page) => page.text).join('\n\n') };
  const size = chunkSize ?? 1000;
  const chunks = chunkText(document.pages, { size, overlap: Math.min(150, Math.floor(size * 0.15)) });
  return { chunks: chunks.map((chunk) => chunk.text) };
}

/**
 * Extracts the text of an uploaded file, whole or in chunks of about `chunkSize` characters.
 * Throws the extractor's errors (see Extractor.extractDocument).
 */
export async function extractFromFile(
  deps: ExtractionDeps,
  file: DocumentFile,
  options: ExtractionOptions,
): Promise<ExtractionResult> {
  return present(await deps.extractor.extractDocument(file), options);
}

/**
 * Extracts the text of the file at `url`: this server's own stored files are read from
 * storage, anything else is downloaded with safeFetch (public addresses only).
 * Throws NOT_FOUND for a missing own file, safeFetch's and the extractor's errors.
 */
export async function extractFromUrl(
  deps: ExtractionDeps,
  { url, ...options }: ExtractionOptions & { url: string },
): Promise<ExtractionResult> {
  let file: DocumentFile;
  if (isOwnFileUrl(url, deps.publicUrl)) {
    const own = await deps.readOwnFile(url);
    if (!own) throw new ApiError('NOT_FOUND', 'File not found');
    file = own;
  } else {
    file = await safeFetch(url, deps.fetchOptions);
  }
  return extractFromFile(deps, file, options);
}
