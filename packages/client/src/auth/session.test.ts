// The session rules of PLATFORM_API.md §2.4 against a stand-in for the auth endpoints.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FieldAssistAuthError } from '../errors.js';
import type { AuthApi } from './api.js';
import { createSession } from './session.js';
import { createTokenStore } from './storage.js';
import { nowSeconds } from './tokens.js';
import type { AuthUser, TokenSet } from './types.js';

const alice: AuthUser = { id: 'u1', email: 'alice@example.com' };

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

function tokens(overrides: Partial<TokenSet> = {}): TokenSet {
  return {
    access_token: 'at1',
    refresh_token: 'rt1',
    token_type: 'Bearer',
    expires_in: 900,
    refresh_expires_in: 3600,
    issued_at: nowSeconds(),
    ...overrides,
  };
}

/** Refresh answers in order: a token body, or a status to refuse with. */
function setup(
  refreshAnswers: (Record<string, unknown> | number)[],
  me: (token: string) => AuthUser | null = () => alice,
) {
  const calls: string[] = [];
  const api: AuthApi = {
    async call<T>(path: string, options: { body?: unknown }) {
      calls.push(`${path} ${JSON.stringify(options.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const answer = refreshAnswers.shift();
      if (typeof answer === 'number' || answer === undefined) {
        throw new FieldAssistAuthError({ code: 'TOKEN_EXPIRED', message: 'x', status: answer ?? 0 });
      }
      return answer as T;
    },
    async fetchUser(token) {
      calls.push(`/me ${token}`);
      const user = me(token);
      return { user, status: user ? 200 : 401 };
    },
  };
  const storage = memoryStorage();
  const store = createTokenStore(storage, 'blink_tokens_p');
  const lost = vi.fn();
  return { calls, storage, session: createSession(api, store, lost), lost };
}

const renewed = {
  access_token: 'at2',
  refresh_token: 'rt2',
  token_type: 'Bearer',
  expires_in: 900,
  refresh_expires_in: 3600,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('session', () => {
  it('persists applied tokens and is authenticated once the user is known', async () => {
    const { session, storage } = setup([]);
    const states: boolean[] = [];
    session.subscribe((s) => states.push(s.isAuthenticated));
    await session.apply(tokens(), { persist: true, user: alice });
    expect(session.state()).toEqual({ user: alice, isLoading: false, isAuthenticated: true });
    expect(JSON.parse(storage.data.get('blink_tokens_p')!)).toMatchObject({
      access_token: 'at1',
      refresh_token: 'rt1',
    });
    expect(states).toEqual([true]);
  });

  it('refreshes an expired access token once for all concurrent callers', async () => {
    const { session, calls, storage } = setup([renewed]);
    await session.apply(tokens({ issued_at: nowSeconds() - 880 }), { persist: true, user: alice });
    const results = await Promise.all([session.getValidToken(), session.getValidToken(), session.refresh()]);
    expect(results).toEqual(['at2', 'at2', true]);
    expect(calls.filter((c) => c.startsWith('/refresh'))).toEqual(['/refresh {"refresh_token":"rt1"}']);
    expect(JSON.parse(storage.data.get('blink_tokens_p')!).refresh_token).toBe('rt2');
    expect(session.user).toEqual(alice);
  });

  it('returns a valid token without asking the server', async () => {
    const { session, calls } = setup([]);
    await session.apply(tokens(), { persist: false, user: alice });
    expect(await session.getValidToken()).toBe('at1');
    expect(calls).toEqual([]);
  });

  it('a refresh refused with 401 clears the tokens and reports the lost session once', async () => {
    const { session, storage, lost } = setup([401]);
    await session.apply(tokens({ issued_at: nowSeconds() - 880 }), { persist: true, user: alice });
    expect(await session.getValidToken()).toBeNull();
    expect(session.tokens).toBeNull();
    expect(session.state().isAuthenticated).toBe(false);
    expect(storage.data.has('blink_tokens_p')).toBe(false);
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('any other refresh failure on the way to a request also ends the session; refresh() alone does not', async () => {
    const { session, lost } = setup([500, 500]);
    await session.apply(tokens({ issued_at: nowSeconds() - 880 }), { persist: true, user: alice });
    expect(await session.refresh()).toBe(false);
    expect(session.tokens).not.toBeNull();
    expect(await session.getValidToken()).toBeNull();
    expect(session.tokens).toBeNull();
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('does not call the server when the refresh token itself has expired', async () => {
    const { session, calls, lost } = setup([renewed]);
    await session.apply(tokens({ issued_at: nowSeconds() - 4000 }), { persist: false, user: alice });
    expect(await session.getValidToken()).toBeNull();
    expect(calls).toEqual([]);
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('keeps the user when /me fails right after a refresh', async () => {
    const { session } = setup([renewed], (token) => (token === 'at1' ? alice : null));
    await session.apply(tokens(), { persist: false });
    expect(await session.refresh()).toBe(true);
    expect(session.state()).toMatchObject({ user: alice, isAuthenticated: true });
  });

  it('stored tokens: /me 401 → refresh; /me 500 or no refresh token → invalid', async () => {
    const rejected = setup([renewed], (token) => (token === 'at2' ? alice : null));
    expect(await rejected.session.validate(tokens())).toBe(true);
    expect(rejected.session.tokens?.access_token).toBe('at2');
    const noRefresh = setup([], () => null);
    expect(await noRefresh.session.validate(tokens({ refresh_token: undefined }))).toBe(false);
  });

  it('refreshes proactively 30 s before expiry while open', async () => {
    vi.useFakeTimers();
    const { session, calls } = setup([renewed]);
    await session.apply(tokens(), { persist: false, user: alice });
    await vi.advanceTimersByTimeAsync(869_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(calls).toEqual(['/refresh {"refresh_token":"rt1"}', '/me at2']); // the user is reloaded
    expect(session.tokens?.access_token).toBe('at2');
  });

  it('clear() stops the proactive refresh', async () => {
    vi.useFakeTimers();
    const { session, calls } = setup([renewed]);
    await session.apply(tokens(), { persist: false, user: alice });
    session.clear();
    await vi.advanceTimersByTimeAsync(900_000);
    expect(calls).toEqual([]);
  });

  it('a sign-out during a refresh is not undone by its answer', async () => {
    const { session } = setup([renewed]);
    await session.apply(tokens(), { persist: false, user: alice });
    const pending = session.refresh();
    session.clear();
    expect(await pending).toBe(false);
    expect(session.tokens).toBeNull();
  });

  it('offline (no answer at all): a stored session opens with the remembered user, and a request keeps it', async () => {
    const online = setup([]);
    await online.session.apply(tokens(), { persist: true, user: alice });
    const offlineApi: AuthApi = {
      call: () =>
        Promise.reject(
          new FieldAssistAuthError({ code: 'NETWORK_ERROR', message: 'Network request failed', status: 0 }),
        ),
      fetchUser: () => Promise.resolve({ user: null, status: 0 }),
    };
    const lost = vi.fn();
    const offline = createSession(offlineApi, createTokenStore(online.storage, 'blink_tokens_p'), lost);
    expect(await offline.validate(tokens())).toBe(true);
    expect(offline.state()).toMatchObject({ user: alice, isAuthenticated: true });

    // Expired while offline: the refresh gets no answer, the session stays and the stale token goes out.
    const expired = tokens({ issued_at: nowSeconds() - 880 });
    expect(await offline.validate(expired)).toBe(true);
    expect(await offline.getValidToken()).toBe('at1');
    expect(lost).not.toHaveBeenCalled();
    expect(online.storage.data.has('blink_tokens_p')).toBe(true);
  });

  it('offline with nothing remembered, or refused when online: no session', async () => {
    const noUser = createSession(
      { call: () => Promise.reject(new Error('x')), fetchUser: () => Promise.resolve({ user: null, status: 0 }) },
      createTokenStore(setup([]).storage, 'k'),
      vi.fn(),
    );
    expect(await noUser.validate(tokens())).toBe(false);
    const refused = setup([401], () => null);
    await refused.session.apply(tokens(), { persist: true, user: alice });
    expect(await refused.session.validate(tokens())).toBe(false);
  });
});
