// A minimal stand-in for the browser globals `client.auth` touches (window, location,
// history, postMessage, popups, sessionStorage) and for the auth endpoints, for unit tests.
import { vi } from 'vitest';

type Listener = (event: unknown) => void;

export function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: vi.fn((key: string) => data.get(key) ?? null),
    setItem: vi.fn((key: string, value: string) => void data.set(key, value)),
    removeItem: vi.fn((key: string) => void data.delete(key)),
  };
}

export interface FakePopup {
  opener: unknown;
  closed: boolean;
  close: () => void;
}

export function fakeWindow(href: string, options: { embedded?: boolean } = {}) {
  const listeners = new Map<string, Set<Listener>>();
  const parent = { postMessage: vi.fn() };
  const popups: { url: string; popup: FakePopup }[] = [];
  const win = {
    location: {
      href,
      get search() {
        return new URL(this.href).search;
      },
      get origin() {
        return new URL(this.href).origin;
      },
    },
    history: {
      state: null,
      replaceState: vi.fn((_state: unknown, _title: string, url: string) => {
        win.location.href = url;
      }),
    },
    sessionStorage: memoryStorage(),
    crossOriginIsolated: false,
    self: null as unknown,
    top: null as unknown,
    parent: null as unknown,
    popupOpener: 'self' as 'self' | null,
    blockPopups: false,
    popups,
    open: vi.fn((url: string) => {
      if (win.blockPopups) return null;
      const popup: FakePopup = {
        opener: win.popupOpener === 'self' ? win : null,
        closed: false,
        close: () => void (popup.closed = true),
      };
      popups.push({ url, popup });
      return popup;
    }),
    addEventListener(type: string, listener: Listener) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(listener);
    },
    removeEventListener(type: string, listener: Listener) {
      listeners.get(type)?.delete(listener);
    },
    /** Delivers an event to the listeners of `type`. */
    emit(type: string, event: unknown) {
      for (const listener of [...(listeners.get(type) ?? [])]) listener(event);
    },
    listenerCount: (type: string) => listeners.get(type)?.size ?? 0,
  };
  win.self = win;
  win.top = options.embedded ? {} : win;
  win.parent = options.embedded ? parent : win;
  return { win, parent };
}

/** Installs `win` as the global window (with a document), until `vi.unstubAllGlobals()`. */
export function installWindow(win: object) {
  vi.stubGlobal('window', win);
  vi.stubGlobal('document', {});
}

type Route = (body: unknown, headers: Record<string, string>) => { status?: number; body?: unknown };

/** A fetch that answers `METHOD /path` from `routes` and records every call. */
export function fakeAuthServer(routes: Record<string, Route>) {
  const calls: { key: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetch = vi.fn(async (input: string, init: RequestInit) => {
    const url = new URL(input);
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ key, body, headers });
    const route = routes[key];
    if (!route) return Response.json({ error: `no route ${key}`, code: 'NOT_FOUND' }, { status: 404 });
    const answer = route(body, headers);
    return Response.json(answer.body ?? {}, { status: answer.status ?? 200 });
  });
  return { fetch, calls };
}

export const tokenBody = (n: number) => ({
  access_token: `at${n}`,
  refresh_token: `rt${n}`,
  token_type: 'Bearer',
  expires_in: 900,
  refresh_expires_in: 3600,
});
