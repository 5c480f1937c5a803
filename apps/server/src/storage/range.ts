import type { ByteRange } from './storage.js';

/**
 * Reads a `Range` header against an object of `size` bytes (RFC 9110 section 14): a range
 * to serve, 'unsatisfiable' (answer 416), or undefined to serve the whole object. Only a
 * single range is served; a malformed header or a list of ranges is ignored, as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [first, last] = [match[1]!, match[2]!];
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Number(last);
  return { start, end: Math.min(end, size - 1) };
}
