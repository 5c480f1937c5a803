// The session: tokens, user, listeners, and the refresh rules of PLATFORM_API.md §2.4.
import { FieldAssistError } from '../errors.js';
import type { AuthApi } from './api.js';
import type { TokenStore } from './storage.js';
import { isAccessTokenExpired, isRefreshTokenExpired, nowSeconds, refreshDelayMs, toTokenSet } from './tokens.js';
import type { AuthState, AuthStateListener, AuthUser, TokenSet } from './types.js';

export interface ApplyOptions {
  /** Write to storage (not for parent-window or other-tab tokens, which live elsewhere). */
  persist: boolean;
  /** The user that came with the tokens; otherwise `GET /me` is asked. */
  user?: AuthUser | null;
  /** Keep the current user if `/me` fails (a refresh of the same session). */
  keepUser?: boolean;
}

export interface Session {
  readonly tokens: TokenSet | null;
  readonly user: AuthUser | null;
  state(): AuthState;
  subscribe(listener: AuthStateListener): () => void;
  setLoading(isLoading: boolean): void;
  setUser(user: AuthUser | null): void;
  apply(tokens: TokenSet, options: ApplyOptions): Promise<void>;
  /** Forgets the session here and in storage. */
  clear(): void;
  /** Clears after a failed refresh, then sends the user to sign in when auth is required. */
  end(): void;
  /** One refresh at a time: concurrent callers share the request. True when tokens were renewed. */
  refresh(): Promise<boolean>;
  /** The access token, refreshed first when it is (about to be) expired; null when signed out. */
  getValidToken(): Promise<string | null>;
  /** Stored tokens at start-up: expired → refresh; else `/me`, whose 401 → refresh. */
  validate(tokens: TokenSet): Promise<boolean>;
}

export function createSession(api: AuthApi, store: TokenStore, onSessionLost: () => void): Session {
  let tokens: TokenSet | null = null;
  let user: AuthUser | null = null;
  let isLoading = true;
  let inflight: Promise<boolean> | null = null;
  // The last refresh got no answer at all (offline), as opposed to a refusal.
  let unreachable = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<AuthStateListener>();

  const state = (): AuthState => ({ user, isLoading, isAuthenticated: user !== null });
  const notify = () => {
    const snapshot = state();
    for (const listener of [...listeners]) {
      try {
        listener(snapshot);
      } catch (error) {
        console.error('Error in auth state listener:', error);
      }
    }
  };

  // Renews the access token ~30 s before it expires while the page is open. A failure
  // here does nothing more: the next getValidToken decides.
  const schedule = () => {
    clearTimeout(timer);
    const delay = refreshDelayMs(tokens, Date.now());
    if (delay === null) return;
    timer = setTimeout(() => {
      if (!isRefreshTokenExpired(tokens, nowSeconds())) void refresh();
    }, delay);
    (timer as { unref?: () => void }).unref?.(); // never keeps a Node process alive
  };

  const apply = async (next: TokenSet, options: ApplyOptions) => {
    if (options.persist) await store.write(next);
    let nextUser = options.user ?? (await api.fetchUser(next.access_token)).user;
    if (!nextUser && options.keepUser) nextUser = user;
    if (nextUser && options.persist) await store.writeUser(nextUser);
    tokens = next;
    user = nextUser;
    isLoading = false;
    notify();
    schedule();
  };

  const clear = () => {
    clearTimeout(timer);
    store.clear();
    tokens = null;
    user = null;
    isLoading = false;
    notify();
  };

  const end = () => {
    clear();
    onSessionLost();
  };

  const performRefresh = async (refreshToken: string): Promise<boolean> => {
    let body: unknown;
    unreachable = false;
    try {
      body = await api.call('/refresh', {
        method: 'POST',
        body: { refresh_token: refreshToken },
        fallback: 'Token refresh failed',
      });
    } catch (error) {
      unreachable = error instanceof FieldAssistError && error.code === 'NETWORK_ERROR';
      const rejected = error instanceof FieldAssistError && error.status === 401;
      if (rejected && tokens?.refresh_token === refreshToken) end();
      return false;
    }
    const next = toTokenSet(body, nowSeconds());
    if (!next || !tokens) return false; // a bad answer, or signed out meanwhile
    if (tokens.refresh_token !== refreshToken) return true; // another tab's newer set arrived meanwhile
    await apply(next, { persist: true, keepUser: true });
    return true;
  };

  const refresh = (): Promise<boolean> => {
    if (inflight) return inflight;
    const refreshToken = tokens?.refresh_token;
    if (!refreshToken) return Promise.resolve(false);
    inflight = performRefresh(refreshToken).finally(() => {
      inflight = null;
    });
    return inflight;
  };

  const getValidToken = async (): Promise<string | null> => {
    const current = tokens;
    if (!current) return null;
    if (!isAccessTokenExpired(current, nowSeconds())) return current.access_token;
    if (!isRefreshTokenExpired(current, nowSeconds()) && (await refresh())) return tokens?.access_token ?? null;
    // Offline: the session is not lost, the server just cannot be asked. The stale token lets
    // the request fail as a network error, and the next call online refreshes.
    if (unreachable && tokens === current) return current.access_token;
    if (tokens === current) end(); // not when a refresh 401 already ended it, or a new sign-in replaced it
    return null;
  };

  // No network at start-up: the stored session stands, with the user remembered from the last
  // time online, until the server can be asked (an app opened offline from its service worker).
  const keepOffline = async (): Promise<boolean> => {
    const remembered = await store.readUser();
    if (!remembered) return false;
    user = remembered;
    notify();
    return true;
  };

  const validate = async (stored: TokenSet): Promise<boolean> => {
    tokens = stored;
    if (isRefreshTokenExpired(stored, nowSeconds()) && isAccessTokenExpired(stored, nowSeconds())) return false;
    if (isAccessTokenExpired(stored, nowSeconds())) return (await refresh()) || (unreachable && keepOffline());
    const answer = await api.fetchUser(stored.access_token);
    if (answer.user) {
      user = answer.user;
      await store.writeUser(answer.user);
      notify();
      schedule();
      return true;
    }
    if (answer.status === 0) return keepOffline();
    return answer.status === 401 && !isRefreshTokenExpired(stored, nowSeconds()) && refresh();
  };

  return {
    get tokens() {
      return tokens;
    },
    get user() {
      return user;
    },
    state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setLoading(loading) {
      isLoading = loading;
      notify();
    },
    setUser(next) {
      user = next;
      notify();
    },
    apply,
    clear,
    end,
    refresh,
    getValidToken,
    validate,
  };
}
