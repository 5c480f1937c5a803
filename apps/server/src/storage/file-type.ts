import { fileTypeFromBuffer, supportedExtensions } from 'file-type';
import { splitExtension } from './paths.js';

/** How many leading bytes the type is detected from (what file-type reads at most). */
export const SNIFF_BYTES = 4100;

// Formats whose signature another extension shares: a .docx is a zip, a .doc an OLE file,
// an .svg often starts as XML. A name with one of these extensions is left as it is.
const sameSignature: Partial<Record<string, string[]>> = {
  jpg: ['jpeg', 'jpe', 'jfif'],
  tif: ['tiff'],
  zip: ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'jar', 'kmz'],
  cfb: ['doc', 'xls', 'ppt', 'msg'],
  xml: ['svg', 'xhtml', 'xsl', 'xslt', 'rss', 'atom', 'kml', 'gpx', 'plist'],
  mp4: ['m4v', 'm4a'],
  ogg: ['oga', 'ogv', 'opus'],
};
// The extension a detected format gets when the name's does not fit (as the client does: OLE -> doc).
const renamedTo: Partial<Record<string, string>> = { cfb: 'doc' };

// Content types known by extension: text formats (no signature) and the shared-signature ones above.
const typeByExtension: Partial<Record<string, string>> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
  xml: 'application/xml',
  json: 'application/json',
  js: 'text/javascript',
  mjs: 'text/javascript',
  css: 'text/css',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  epub: 'application/epub+zip',
};
const textExtensions = new Set(['txt', 'log', 'md', 'csv', 'html', 'htm', 'svg', 'xml', 'json', 'js', 'mjs', 'css']);

export interface DetectedFile {
  /** The name, its extension corrected to what the bytes are. */
  fileName: string;
  contentType: string;
}

/**
 * What the first bytes say a file is, and the name it should carry: the extension is
 * rewritten (or appended) when it does not match, as PLATFORM_API.md 4.1 says the client
 * does, so a PNG named `.pdf` becomes `.png`. The client's declared type is never trusted.
 */
export async function detectFile(head: Buffer, fileName: string): Promise<DetectedFile> {
  const { stem, extension } = splitExtension(fileName);
  const ext = extension?.toLowerCase();
  const renamed = (newExtension: string) => ({ fileName: `${stem}.${newExtension}` });
  const known = (e: string | undefined) => e !== undefined && (supportedExtensions.has(e) || e in typeByExtension);

  // No bytes cannot contradict the name.
  if (head.length === 0)
    return {
      fileName,
      contentType: (ext && textExtensions.has(ext) && typeByExtension[ext]) || 'application/octet-stream',
    };

  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    if (ext === detected.ext || (ext && sameSignature[detected.ext]?.includes(ext))) {
      return { fileName, contentType: (ext !== detected.ext && typeByExtension[ext]) || detected.mime };
    }
    const newExtension = renamedTo[detected.ext] ?? detected.ext;
    return { ...renamed(newExtension), contentType: typeByExtension[newExtension] ?? detected.mime };
  }

  const charset = textCharset(head);
  if (charset !== undefined) {
    const withCharset = (type: string) => (charset ? `${type}; charset=${charset}` : type);
    if (ext && textExtensions.has(ext)) return { fileName, contentType: withCharset(typeByExtension[ext]!) };
    // Text named as a binary format (or not named at all) becomes .txt; other names (.yaml, .ini) stay.
    return {
      ...(ext === undefined || known(ext) ? renamed('txt') : { fileName }),
      contentType: withCharset('text/plain'),
    };
  }
  return {
    ...(ext === undefined || known(ext) ? renamed('bin') : { fileName }),
    contentType: 'application/octet-stream',
  };
}

/**
 * The charset of text content ('' when text but not UTF-8 or UTF-16: the reader guesses),
 * or undefined for binary content (control bytes other than tab, newlines, form feed, escape).
 */
function textCharset(head: Buffer): string | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head.some((byte) => byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b))) return undefined;
  return isUtf8(head) ? 'utf-8' : '';
}

// `stream: true`: the sample may end inside a multi-byte character without being invalid.
function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
