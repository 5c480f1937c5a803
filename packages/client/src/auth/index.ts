// `client.auth`: wires storage, the wire calls, the session and start-up together
// (PLATFORM_API.md §2, SPEC.md §4–6, §8, §9).
import type { FetchLike } from '../http.js';
import { createAccountMethods } from './account.js';
import { createAuthApi, userOf } from './api.js';
import type { AuthClient } from './auth-client.js';
import { browserWindow, type AuthContext } from './context.js';
import { authError, noAccessToken } from './errors.js';
import { buildLoginUrl, trustedOrigins } from './hosted-page.js';
import { initialize, isEmbedded, listenToOtherTabs, listenToParent, type InitContext } from './init.js';
import { can, hasRole } from './roles.js';
import { createSession } from './session.js';
import { createSignInMethods } from './sign-in.js';
import { createTokenStore, defaultStorage, tokenStorageKey } from './storage.js';
import { nowSeconds, toTokenSet } from './tokens.js';
import type { AuthOptions, AuthProvider, AuthUser } from './types.js';
import { OAUTH_STATE_KEY, randomHex } from './url-session.js';

/** SPEC.md §9: `me()` waits this long for a signed-in user. */
export const ME_TIMEOUT_MS = 5_000;

export interface CreateAuthOptions {
  projectId: string;
  baseUrl: string;
  fetch: FetchLike;
  auth?: AuthOptions;
}

/** §2.12: managed unless told otherwise; `authRequired: false` alone means headless. */
function modeOf(config: AuthOptions): 'managed' | 'headless' {
  if (config.mode) return config.mode;
  return config.authRequired === false ? 'headless' : 'managed';
}

/** Creates `client.auth` and starts restoring the session (parent window, URL, storage). */
export function createAuth(options: CreateAuthOptions): AuthClient {
  const config = options.auth ?? {};
  const win = browserWindow();
  const store = createTokenStore(config.storage ?? defaultStorage(), tokenStorageKey(options.projectId));
  const api = createAuthApi(options.baseUrl, options.fetch);
  const login = (nextUrl?: string, { provider }: { provider?: AuthProvider } = {}) => {
    if (!win) return;
    const state = randomHex(16);
    try {
      win.sessionStorage.setItem(OAUTH_STATE_KEY, state); // checked when the hosted page sends the tokens back
    } catch {
      // Storage refused (a sandboxed frame): the return is then taken without the check.
    }
    win.location.href = buildLoginUrl(
      options.baseUrl,
      options.projectId,
      nextUrl ?? config.redirectUrl ?? win.location.href,
      { state, provider },
    );
  };
  const session = createSession(api, store, () => {
    if (config.authRequired) login();
  });
  const ctx: AuthContext = {
    api,
    session,
    projectId: options.projectId,
    baseUrl: options.baseUrl,
    win,
    mode: modeOf(config),
    trustedOrigins: trustedOrigins(options.baseUrl),
  };
  const init: InitContext = { ...ctx, store, authRequired: config.authRequired === true, login };
  const parentTokens = win && isEmbedded(win) ? listenToParent(init, win) : undefined;
  if (win) listenToOtherTabs(init, win);
  let initialized = false;
  const ready = initialize(init, parentTokens)
    .catch((error: unknown) => console.error('Auth start-up failed:', error))
    .finally(() => {
      initialized = true;
    });

  const me = () =>
    new Promise<AuthUser>((resolve, reject) => {
      let unsubscribe = () => {};
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        unsubscribe();
        outcome();
      };
      const timer = setTimeout(
        () => settle(() => reject(authError('AUTH_TIMEOUT', 'Authentication timeout - no user available'))),
        ME_TIMEOUT_MS,
      );
      const check = () => {
        const user = session.user;
        if (user) settle(() => resolve(user));
        else if (initialized && !session.state().isLoading)
          settle(() => reject(authError('INVALID_CREDENTIALS', 'Not authenticated')));
      };
      unsubscribe = session.subscribe(check);
      void ready.then(check);
    });

  const logout = async (redirectUrl?: string) => {
    const ended = session.tokens;
    session.clear();
    if (ended?.refresh_token) {
      // Our server revokes the session (the published SDK only forgets it locally). No bearer:
      // the refresh token names the session, and a stale access token would get the call refused.
      await api
        .call('/signout', { method: 'POST', body: { refresh_token: ended.refresh_token }, fallback: 'Sign out failed' })
        .catch(() => undefined);
    }
    if (redirectUrl && win) win.location.href = redirectUrl;
  };

  return {
    ...createSignInMethods(ctx),
    ...createAccountMethods(ctx),
    login,
    logout,
    signOut: () => logout(),
    me,
    currentUser: () => session.user,
    isAuthenticated: () => session.user !== null,
    async updateMe(updates) {
      const token = await session.getValidToken();
      if (!token) throw noAccessToken();
      const user = userOf(
        await api.call('/me', { method: 'PATCH', body: updates, token, fallback: 'Failed to update user' }),
      );
      if (!user) throw authError('NETWORK_ERROR', 'Invalid response format: no user');
      session.setUser(user);
      return user;
    },
    refresh: () => session.refresh(),
    getValidToken: () => session.getValidToken(),
    async forceRefresh() {
      return (await session.refresh()) ? (session.tokens?.access_token ?? null) : null;
    },
    async setSession(tokens, { persist = true } = {}) {
      const set = toTokenSet(tokens, nowSeconds(), true);
      if (!set) throw authError('TOKEN_EXPIRED', 'No access token available');
      await session.apply(set, { persist });
      return session.user;
    },
    onAuthStateChanged(listener) {
      const unsubscribe = session.subscribe(listener);
      let active = true;
      queueMicrotask(() => {
        if (active) listener(session.state());
      });
      return () => {
        active = false;
        unsubscribe();
      };
    },
    getState: () => session.state(),
    hasRole: (role) => hasRole(session.user?.role, role),
    can: (action, resource) => can(config.roles, session.user?.role, action, resource),
    ready: () => ready,
  };
}
