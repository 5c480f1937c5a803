// The app's custom event data, made the shape PLATFORM_API.md section 9 sends and the
// server accepts (apps/server/src/analytics/schemas.ts).

export const MAX_STRING = 256;
/** The server refuses a whole batch over these, so an event over them is dropped here. */
export const MAX_CUSTOM_KEYS = 50;
export const MAX_CUSTOM_BYTES = 4096;
const MAX_DEPTH = 10;

/** Strings over 256 characters become their first 253 and `...`. */
export function cutString(text: string): string {
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING - 3)}...` : text;
}

/**
 * Recursively: strings cut, arrays turned into objects keyed "0", "1", ..., dates as ISO
 * strings. Values nested deeper than the server accepts (or in a cycle) are left out.
 */
export function sanitizeData(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutString(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return undefined;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const clean = sanitizeData(item, depth + 1);
    if (clean !== undefined) result[key] = clean;
  }
  return result;
}

/** Whether custom data stays within the server's per-event limits (50 keys, 4 KB of JSON). */
export function fitsServerLimits(custom: Record<string, unknown>): boolean {
  if (Object.keys(custom).length > MAX_CUSTOM_KEYS) return false;
  return new TextEncoder().encode(JSON.stringify(custom)).length <= MAX_CUSTOM_BYTES;
}
