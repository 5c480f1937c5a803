import type { ChatSource } from '@fieldassist/client';

import { openManual } from '@/components/manual-viewer/open-manual';

/** The manual at the cited page; PDF viewers open `#page=N`. Only web addresses qualify. */
export function sourceHref(source: ChatSource): string | undefined {
  try {
    const url = new URL(source.fileUrl, window.location.href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (source.page) url.hash = `page=${source.page}`;
    return url.toString();
  } catch {
    return undefined;
  }
}

/**
 * Opens a cited manual page in the app's viewer, the passage marked: the one way both the
 * sources list and an inline citation [n] open a source, so they always open the same thing.
 */
export function openSource(source: ChatSource): void {
  if (sourceHref(source)) openManual(source);
}

/** `Title, page N`: how a source is named on screen. */
export function sourceLabel(source: ChatSource): string {
  return `${source.title || 'Manual'}${source.page ? `, page ${source.page}` : ''}`;
}
