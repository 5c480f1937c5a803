// A stand-in for the browser page analytics reads (location, history, document, localStorage)
// and for the HTTP core, for Node tests.
import type { HttpCore, HttpRequest } from '../http.js';
import type { AnalyticsEvent, AnalyticsStorage, AnalyticsWindow } from './types.js';

type Listener = () => void;

export function memoryStore(): AnalyticsStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

function listenerSet() {
  const listeners = new Map<string, Set<Listener>>();
  return {
    addEventListener: (type: string, listener: Listener) =>
      void (listeners.get(type) ?? listeners.set(type, new Set()).get(type)!).add(listener),
    removeEventListener: (type: string, listener: Listener) => void listeners.get(type)?.delete(listener),
    emit: (type: string) => [...(listeners.get(type) ?? [])].forEach((listener) => listener()),
    count: (type: string) => listeners.get(type)?.size ?? 0,
  };
}

export interface FakePageOptions {
  referrer?: string;
  doNotTrack?: string | null;
  innerWidth?: number;
  localStorage?: AnalyticsStorage;
}

/** A page at `href`; `navigate` moves it like a click on a link handled by the app's router. */
export function fakePage(href: string, options: FakePageOptions = {}) {
  let url = new URL(href);
  const windowEvents = listenerSet();
  const documentEvents = listenerSet();
  const document = {
    referrer: options.referrer ?? '',
    visibilityState: 'visible',
    addEventListener: documentEvents.addEventListener,
    removeEventListener: documentEvents.removeEventListener,
  };
  const setUrl = (_data: unknown, _unused: string, next?: string | URL | null) => {
    if (next != null) url = new URL(String(next), url);
  };
  const win = {
    location: {
      get pathname() {
        return url.pathname;
      },
      get search() {
        return url.search;
      },
    },
    history: { pushState: setUrl, replaceState: setUrl },
    document,
    navigator: { doNotTrack: options.doNotTrack ?? null },
    innerWidth: options.innerWidth ?? 1280,
    localStorage: options.localStorage ?? memoryStore(),
    addEventListener: windowEvents.addEventListener,
    removeEventListener: windowEvents.removeEventListener,
  } satisfies AnalyticsWindow & Record<string, unknown>;
  return {
    win: win as AnalyticsWindow,
    /** The browser's back button: the URL changes, then popstate. */
    back(to: string) {
      url = new URL(to, url);
      windowEvents.emit('popstate');
    },
    hide() {
      document.visibilityState = 'hidden';
      documentEvents.emit('visibilitychange');
    },
    emit: windowEvents.emit,
    listenerCount: (type: string) => windowEvents.count(type) + documentEvents.count(type),
  };
}

/** An HTTP core that records each batch; `fail` makes the next sends throw what it returns. */
export function fakeHttp() {
  const batches: AnalyticsEvent[][] = [];
  const state = { fail: null as (() => unknown) | null, hang: false };
  const request = async (req: HttpRequest) => {
    if (state.hang) {
      return new Promise<never>((_resolve, reject) =>
        req.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    }
    if (state.fail) throw state.fail();
    batches.push((req.body as { events: AnalyticsEvent[] }).events);
    return { data: { success: true }, status: 200, headers: new Headers() };
  };
  return { http: { request: request as unknown as HttpCore['request'] }, batches, state };
}
