import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '../errors.js';

export type DocumentKind = 'pdf' | 'docx' | 'doc' | 'txt';

export interface DocumentFile {
  bytes: Buffer;
  /** Used for messages only: the kind comes from the bytes. */
  fileName: string;
  /** The type the uploader or the remote server claimed; a hint, never trusted. */
  contentType?: string;
}

const kindsByMime: Record<string, DocumentKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  // Word 97-2003 files are OLE compound files; word-extractor tells a Word one from the rest.
  'application/x-cfb': 'doc',
};

const supported = 'FieldAssist reads PDF, DOCX, DOC and TXT files';

function unsupported(mime: string): ApiError {
  return new ApiError('UNSUPPORTED_FILE_TYPE', `Unsupported file type: ${mime}. ${supported}`);
}

// A text file's byte-order mark is checked before file-type, which takes UTF-16's FF FE for an MP3 frame.
function hasTextBom(bytes: Buffer): boolean {
  const [a, b, c] = bytes;
  return (a === 0xef && b === 0xbb && c === 0xbf) || (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff);
}

/** Bytes without a known signature are text unless they hold NUL bytes (binary, or UTF-16 without BOM). */
function looksLikeText(bytes: Buffer): boolean {
  return !bytes.subarray(0, 64 * 1024).includes(0);
}

function isHtml(file: DocumentFile): boolean {
  if (/^\s*(text\/html|application\/xhtml\+xml)/i.test(file.contentType ?? '')) return true;
  const start = file.bytes
    .subarray(0, 512)
    .toString('latin1')
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html');
}

/**
 * Tells which extractor reads the file, from its first bytes (file-type), not from its name.
 * Throws EMPTY_DOCUMENT for zero bytes and UNSUPPORTED_FILE_TYPE (400) for anything else,
 * for example 'Unsupported file type: image/png' for a PNG named .pdf.
 */
export async function detectKind(file: DocumentFile): Promise<DocumentKind> {
  if (file.bytes.length === 0) {
    const claimsPdf = /\.pdf$/i.test(file.fileName) || /^application\/pdf/i.test(file.contentType ?? '');
    throw new ApiError('EMPTY_DOCUMENT', claimsPdf ? 'PDF content is empty' : 'The file is empty');
  }
  const sniffed = hasTextBom(file.bytes) ? undefined : await fileTypeFromBuffer(file.bytes);
  if (sniffed) {
    const kind = kindsByMime[sniffed.mime];
    if (!kind) throw unsupported(sniffed.mime);
    return kind;
  }
  if (!hasTextBom(file.bytes) && !looksLikeText(file.bytes)) throw unsupported('application/octet-stream');
  if (isHtml(file)) throw unsupported('text/html (use scrape for web pages)');
  return 'txt';
}
