import type { ManualTarget } from './manual-target';

let show: ((target: ManualTarget) => void) | undefined;

/**
 * Opens a manual at the target's page in the app's viewer, the passage marked: the one way a
 * source or an inline citation opens its page. A second call moves the open viewer. With no
 * viewer on screen (no ManualViewerProvider mounted), the file opens in a new tab at the page.
 */
export function openManual(target: ManualTarget): void {
  if (show) return show({ ...target }); // a copy: opening the same source again goes back to its page
  const url = new URL(target.fileUrl, window.location.href);
  if (target.page) url.hash = `page=${target.page}`;
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** For ManualViewerProvider: where openManual shows a manual from now on. Answers the undo. */
export function showManualsWith(handler: (target: ManualTarget) => void): () => void {
  show = handler;
  return () => {
    if (show === handler) show = undefined;
  };
}
