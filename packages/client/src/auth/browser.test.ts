// `client.auth` in a (fake) browser: start-up from the URL, storage and a parent window,
// cross-tab sync, redirects and the magic-link URL (PLATFORM_API.md §2.3, §2.7, §2.10, §2.11).
import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { fakeAuthServer, fakeWindow, installWindow, memoryStorage, tokenBody } from '../../test/fake-browser.js';
import { createAuth } from './index.js';
import type { AuthOptions } from './types.js';

const BASE = 'http://fa.test:3000';
const alice = { id: 'u1', email: 'alice@example.com', role: 'technician' };
const KEY = 'blink_tokens_fieldassist';

function server() {
  return fakeAuthServer({
    'GET /api/auth/me': (_body, headers) =>
      headers.Authorization === 'Bearer bad'
        ? { status: 401, body: { code: 'INVALID_TOKEN' } }
        : { body: { user: alice } },
    'POST /api/auth/refresh': () => ({ body: tokenBody(2) }),
    'POST /api/auth/signin/magic/verify': () => ({ body: { ...tokenBody(3), user: alice } }),
    'POST /api/auth/signout': () => ({ body: { success: true } }),
  });
}

function start(href: string, auth: AuthOptions = {}, options: { embedded?: boolean; oauthState?: string } = {}) {
  const { win, parent } = fakeWindow(href, options);
  if (options.oauthState) win.sessionStorage.data.set('blink_oauth_state', options.oauthState);
  installWindow(win);
  const storage = memoryStorage();
  const api = server();
  const client = createAuth({ projectId: 'fieldassist', baseUrl: BASE, fetch: api.fetch, auth: { storage, ...auth } });
  return { win, parent, storage, api, client };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('start-up in a browser', () => {
  it('takes tokens from the URL, cleans the address bar before any request, persists them', async () => {
    const { win, storage, api, client } = start(
      'http://app.test/dash?tab=2&access_token=at1&refresh_token=rt1&state=s&expires_in=5#h',
    );
    expect(client.getState().isLoading).toBe(true);
    await client.ready();
    expect(win.history.replaceState).toHaveBeenCalledWith(null, '', 'http://app.test/dash?tab=2#h');
    expect(win.history.replaceState.mock.invocationCallOrder[0]).toBeLessThan(api.fetch.mock.invocationCallOrder[0]!);
    expect(JSON.parse(storage.data.get(KEY)!)).toMatchObject({
      access_token: 'at1',
      refresh_token: 'rt1',
      expires_in: 900,
      refresh_expires_in: 2_592_000,
    });
    expect(client.getState()).toEqual({ user: alice, isLoading: false, isAuthenticated: true });
    expect(await client.me()).toEqual(alice);
  });

  it('takes tokens returned with the state this tab sent, and forgets that state', async () => {
    const { win, client } = start(
      'http://app.test/?access_token=at1&refresh_token=rt1&state=s1',
      {},
      { oauthState: 's1' },
    );
    await client.ready();
    expect(client.getState().isAuthenticated).toBe(true);
    expect(win.sessionStorage.data.has('blink_oauth_state')).toBe(false);
  });

  it('refuses tokens returned with another state than the one this tab sent (VERIFICATION_FAILED State mismatch)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { win, storage, api, client } = start(
      'http://app.test/dash?access_token=forged&refresh_token=rt&state=theirs',
      {},
      { oauthState: 'mine' },
    );
    await client.ready();
    expect(client.getState()).toEqual({ user: null, isLoading: false, isAuthenticated: false });
    expect(win.location.href).toBe('http://app.test/dash');
    expect(storage.data.has(KEY)).toBe(false);
    expect(api.calls).toEqual([]);
    expect(errors).toHaveBeenCalledWith(
      'Auth start-up failed:',
      expect.objectContaining({ code: 'VERIFICATION_FAILED', message: 'State mismatch' }),
    );
  });

  it('login goes to the hosted page with redirect_url, project_id, a fresh state kept for the return, and the provider when one is chosen', async () => {
    const { win, client } = start('http://app.test/');
    await client.ready();
    client.login('http://app.test/');
    const first = new URL(win.location.href);
    expect(first.origin + first.pathname).toBe(`${BASE}/auth`);
    expect([...first.searchParams.keys()]).toEqual(['redirect_url', 'project_id', 'state']);
    expect(first.searchParams.get('redirect_url')).toBe('http://app.test/');
    expect(first.searchParams.get('project_id')).toBe('fieldassist');
    expect(first.searchParams.get('state')).toMatch(/^[0-9a-f]{32}$/);
    expect(win.sessionStorage.data.get('blink_oauth_state')).toBe(first.searchParams.get('state'));

    client.login('http://app.test/', { provider: 'google' });
    const second = new URL(win.location.href);
    expect(second.searchParams.get('provider')).toBe('google');
    expect(second.searchParams.get('state')).not.toBe(first.searchParams.get('state'));
  });

  it('restores stored tokens, and refreshes when /me refuses them', async () => {
    const storage = memoryStorage();
    storage.data.set(
      KEY,
      JSON.stringify({ ...tokenBody(1), access_token: 'bad', issued_at: Math.floor(Date.now() / 1000) }),
    );
    const { client, api } = start('http://app.test/', { storage });
    await client.ready();
    expect(api.calls.map((c) => c.key)).toEqual(['GET /api/auth/me', 'POST /api/auth/refresh', 'GET /api/auth/me']);
    expect(await client.getValidToken()).toBe('at2');
    expect(JSON.parse(storage.data.get(KEY)!).refresh_token).toBe('rt2');
  });

  it('without a session and with authRequired, goes to the hosted page', async () => {
    const { win, client } = start('http://app.test/page?redirect=x&q=1', { authRequired: true });
    await client.ready();
    const target = new URL(win.location.href);
    expect(target.origin + target.pathname).toBe(`${BASE}/auth`);
    expect(target.searchParams.get('redirect_url')).toBe('http://app.test/page?q=1');
    expect(target.searchParams.get('project_id')).toBe('fieldassist');
    await expect(client.me()).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Not authenticated' });
  });

  it('uses a parent window’s tokens (trusted origin, from the parent only) without persisting them', async () => {
    const { win, parent, storage, client } = start('http://app.test/', {}, { embedded: true });
    expect(parent.postMessage).toHaveBeenCalledWith(
      { type: 'BLINK_REQUEST_AUTH_TOKENS', projectId: 'fieldassist' },
      '*',
    );
    const tokens = { ...tokenBody(7), issued_at: Math.floor(Date.now() / 1000) };
    win.emit('message', { origin: 'https://evil.test', source: parent, data: { type: 'BLINK_AUTH_TOKENS', tokens } });
    win.emit('message', { origin: BASE, source: {}, data: { type: 'BLINK_AUTH_TOKENS', tokens } });
    win.emit('message', {
      origin: 'http://localhost:3001',
      source: parent,
      data: { type: 'BLINK_AUTH_TOKENS', tokens },
    });
    await client.ready();
    expect(await client.getValidToken()).toBe('at7');
    expect(storage.setItem).not.toHaveBeenCalled();
    win.emit('message', { origin: BASE, source: parent, data: { type: 'BLINK_AUTH_LOGOUT' } });
    expect(client.isAuthenticated()).toBe(false);
  });
});

describe('cross-tab sync', () => {
  it('applies tokens another tab wrote (without writing them back) and signs out on removal', async () => {
    const { win, storage, client } = start('http://app.test/');
    await client.ready();
    const states: boolean[] = [];
    client.onAuthStateChanged((s) => states.push(s.isAuthenticated));
    win.emit('storage', { key: 'other', newValue: 'x' });
    win.emit('storage', {
      key: KEY,
      newValue: JSON.stringify({ ...tokenBody(5), issued_at: Math.floor(Date.now() / 1000) }),
    });
    await vi.waitFor(() => expect(client.isAuthenticated()).toBe(true));
    expect(await client.getValidToken()).toBe('at5');
    expect(storage.setItem).not.toHaveBeenCalled();
    win.emit('storage', { key: KEY, newValue: null });
    expect(client.isAuthenticated()).toBe(false);
    expect(await client.getValidToken()).toBeNull();
    expect(states).toEqual([false, true, false]);
  });
});

describe('magic link and logout', () => {
  it('reads magic_token from the page, signs in and removes only that parameter', async () => {
    const { win, api, client } = start('http://app.test/welcome?magic_token=mt_1&tab=1');
    await client.ready();
    expect(await client.verifyMagicLink()).toEqual(alice);
    expect(api.calls.at(-1)).toMatchObject({
      key: 'POST /api/auth/signin/magic/verify',
      body: { token: 'mt_1', projectId: 'fieldassist' },
    });
    expect(win.location.href).toBe('http://app.test/welcome?tab=1');
  });

  it('without any token: VERIFICATION_FAILED "No magic link token found"', async () => {
    const { client } = start('http://app.test/');
    await expect(client.verifyMagicLink()).rejects.toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: 'No magic link token found',
      userMessage: 'Verification failed. Please try again.',
    });
  });

  it('logout forgets the session, sends the refresh token to /signout and then navigates', async () => {
    const { win, storage, api, client } = start('http://app.test/?access_token=at1&refresh_token=rt1');
    await client.ready();
    await client.logout('http://app.test/bye');
    expect(storage.data.has(KEY)).toBe(false);
    expect(api.calls.at(-1)).toMatchObject({ key: 'POST /api/auth/signout', body: { refresh_token: 'rt1' } });
    expect(api.calls.at(-1)?.headers.Authorization).toBeUndefined();
    expect(win.location.href).toBe('http://app.test/bye');
  });
});
