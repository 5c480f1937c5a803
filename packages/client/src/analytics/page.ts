// The browser hooks of analytics: a pageview on every history change, a flush when the page
// is hidden or left (PLATFORM_API.md section 9).
import type { AnalyticsWindow } from './types.js';

export interface PageHooks {
  onNavigate(): void;
  onHide(): void;
}

/** The window of this page, when there is one with a document. */
export function browserWindow(): AnalyticsWindow | null {
  if (typeof window === 'undefined' || typeof document === 'undefined') return null;
  return window as unknown as AnalyticsWindow;
}

/** Wraps pushState and replaceState and listens for popstate, pagehide and visibilitychange. Returns the undo. */
export function watchPage(win: AnalyticsWindow, hooks: PageHooks): () => void {
  const history = win.history;
  const originalPush = history.pushState;
  const originalReplace = history.replaceState;
  let watching = true;
  // The pageview follows the call, so it sees the new location; a refused navigation throws first.
  const wrap = (original: typeof originalPush): typeof originalPush =>
    function (this: unknown, ...args) {
      original.apply(history, args);
      if (watching) hooks.onNavigate();
    };
  const push = wrap(originalPush);
  const replace = wrap(originalReplace);
  history.pushState = push;
  history.replaceState = replace;

  const onPopState = () => hooks.onNavigate();
  const onPageHide = () => hooks.onHide();
  const onVisibility = () => {
    if (win.document.visibilityState === 'hidden') hooks.onHide();
  };
  win.addEventListener('popstate', onPopState);
  win.addEventListener('pagehide', onPageHide);
  win.document.addEventListener('visibilitychange', onVisibility);

  return () => {
    watching = false;
    // Put the originals back unless someone wrapped ours since (their wrapper then calls our inert one).
    if (history.pushState === push) history.pushState = originalPush;
    if (history.replaceState === replace) history.replaceState = originalReplace;
    win.removeEventListener('popstate', onPopState);
    win.removeEventListener('pagehide', onPageHide);
    win.document.removeEventListener('visibilitychange', onVisibility);
  };
}
