import { SAVED_MANUALS_CACHE } from './saved-manuals-cache';

/** The address a file is saved under: the same the app and the viewer fetch, without its query or page. */
export function savedKeyOf(fileUrl: string): string {
  const url = new URL(fileUrl, window.location.href);
  url.search = '';
  url.hash = '';
  return url.toString();
}

/**
 * Keeps a manual's file on the device (Cache Storage), where the service worker serves it at
 * its own URL with no network, whole or in ranges (issue 18, "Save for offline").
 */
export async function saveManualFile(fileUrl: string): Promise<void> {
  const key = savedKeyOf(fileUrl);
  const response = await fetch(key, { cache: 'no-store' });
  if (!response.ok) throw new Error(`The file could not be downloaded (HTTP ${response.status}).`);
  const body = await response.blob();
  // Saved with its length, so the library can say how much space the saved manuals take.
  const headers = new Headers(response.headers);
  headers.set('content-length', String(body.size));
  await (await caches.open(SAVED_MANUALS_CACHE)).put(key, new Response(body, { status: 200, headers }));
}

export async function removeManualFile(fileUrl: string): Promise<void> {
  await (await caches.open(SAVED_MANUALS_CACHE)).delete(savedKeyOf(fileUrl));
}

/** The saved files: address -> bytes on the device. */
export async function listSavedFiles(): Promise<Map<string, number>> {
  const cache = await caches.open(SAVED_MANUALS_CACHE);
  const saved = new Map<string, number>();
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    saved.set(request.url, Number(response?.headers.get('content-length') ?? 0));
  }
  return saved;
}
