import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export const MAX_PATH_LENGTH = 512;

// Letters and digits of any script, and the punctuation real file names carry
// ("Pump manual (rev 2).pdf"). Everything else is refused: control characters, '%'
// (no percent-encoded tricks), '\' and the characters Windows forbids in names.
const segmentPattern = /^[\p{L}\p{N}\p{M} ._\-()[\]+,@&'!~=]+$/u;

/**
 * Why a logical storage path (`manuals/1700000000_pump.pdf`) is refused, or undefined
 * when it is valid. Paths are only ever names in the database; these rules keep them
 * unambiguous and harmless wherever they are shown or sent back.
 */
export function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is required';
  if (path.length > MAX_PATH_LENGTH) return `must be at most ${MAX_PATH_LENGTH} characters`;
  if (path.startsWith('/')) return 'must be relative (no leading /)';
  if (path.includes('\\')) return 'must not contain a backslash';
  if (path.includes('%')) return 'must not contain %';
  for (const segment of path.split('/')) {
    if (segment === '') return 'must not contain empty segments';
    if (segment === '.' || segment === '..') return "must not contain '.' or '..' segments";
    if (segment.trim() !== segment) return 'segments must not start or end with a space';
    if (!segmentPattern.test(segment))
      return "may contain letters, digits, spaces and . _ - ( ) [ ] + , @ & ' ! ~ = only";
  }
  return undefined;
}

export const ZStoragePath = z.string().superRefine((path, ctx) => {
  const problem = pathProblem(path);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** The top-level folder of a path (`manuals`), or undefined for a file at the root. */
export function topFolder(path: string): string | undefined {
  const slash = path.indexOf('/');
  return slash > 0 ? path.slice(0, slash) : undefined;
}

export const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export function withLastSegment(path: string, name: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1) + name;
}

/** A name's stem and extension; a leading dot (".env") or odd characters mean no extension. */
export function splitExtension(name: string): { stem: string; extension?: string } {
  const dot = name.lastIndexOf('.');
  const extension = name.slice(dot + 1);
  if (dot <= 0 || !/^[A-Za-z0-9]{1,10}$/.test(extension)) return { stem: name };
  return { stem: name.slice(0, dot), extension };
}

const keyPattern = /^[0-9a-f]{32}\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/** True for keys made by newStorageKey: the only names a driver ever stores under. */
export const isStorageKey = (key: string) => keyPattern.test(key);

/**
 * A fresh, unguessable key: 128 random bits, then the file name reduced to safe ASCII so
 * the URL still says what the file is (`3f9c.../Pump_manual_rev_2_.pdf`).
 */
export function newStorageKey(fileName: string): string {
  const { stem, extension } = splitExtension(fileName);
  const ascii = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_');
  const safeStem =
    ascii(stem)
      .replace(/^[._]+/, '')
      .slice(0, 80) || 'file';
  const safeName = extension ? `${safeStem}.${extension.slice(0, 10)}` : safeStem;
  return `${randomBytes(16).toString('hex')}/${safeName}`;
}
