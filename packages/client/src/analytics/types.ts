// The public surface of `client.analytics` (PLATFORM_API.md section 9) and the parts of a
// browser it uses, named so tests can hand in their own.
import type { HttpCore } from '../http.js';

/** `client.analytics`: a no-op outside browsers and when the browser asks not to be tracked. */
export interface AnalyticsClient {
  /** Queues an event: the standard fields plus `data` spread on top (strings cut to 256 characters). */
  log(type: string, data?: Record<string, unknown>): void;
  /** Sends the next batch now (at most 10 events); resolves when it was sent or re-queued. */
  flush(): Promise<void>;
  /** Stops logging (the queue is kept); `enable()` resumes. Neither overrides do-not-track. */
  disable(): void;
  enable(): void;
  isEnabled(): boolean;
  /** Forgets the remembered UTM attribution. */
  clearAttribution(): void;
  /** Stops for good: timers, listeners and the history hooks are removed. */
  destroy(): void;
}

export type AnalyticsEvent = Record<string, unknown> & { type: string };

/** Synchronous, like localStorage; calls that throw are treated as "nothing stored". */
export interface AnalyticsStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

type Listener = () => void;
type HistoryMethod = (data: unknown, unused: string, url?: string | URL | null) => void;

/** What analytics reads from `window`. */
export interface AnalyticsWindow {
  location: { pathname: string; search: string };
  history: { pushState: HistoryMethod; replaceState: HistoryMethod };
  document: {
    referrer: string;
    visibilityState?: string;
    addEventListener(type: string, listener: Listener): void;
    removeEventListener(type: string, listener: Listener): void;
  };
  navigator?: { doNotTrack?: string | null };
  innerWidth?: number;
  localStorage?: AnalyticsStorage;
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
  /** Set by a page that tracks its own first pageview (as with the published SDK). */
  __BLINK_ANALYTICS_PRESENT?: unknown;
}

export interface AnalyticsTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface AnalyticsOptions {
  http: Pick<HttpCore, 'request'>;
  projectId: string;
  /** The signed-in user, for user_id and user_email (the server credits the token's user anyway). */
  getUser?: () => { id: string; email?: string | null } | null;
  /** Default: the global window in a browser. null: not a browser, analytics stays off. */
  window?: AnalyticsWindow | null;
  /** Default: the window's localStorage. */
  storage?: AnalyticsStorage;
  /** Default: Date.now. */
  now?: () => number;
  /** Default: Math.random (session ids). */
  random?: () => number;
  /** Default: the global setTimeout and clearTimeout. */
  timers?: AnalyticsTimers;
}
