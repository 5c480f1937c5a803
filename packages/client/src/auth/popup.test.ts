// Provider sign-in through the hosted page in a popup (PLATFORM_API.md §2.8, SPEC.md §5, §9).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeAuthServer, fakeWindow, installWindow, memoryStorage, tokenBody } from '../../test/fake-browser.js';
import { createAuth } from './index.js';

const BASE = 'http://fa.test:3000';
const alice = { id: 'u1', email: 'alice@example.com' };

function start(mode: 'headless' | 'managed' = 'headless', options: { embedded?: boolean } = {}) {
  const { win } = fakeWindow('http://app.test/jobs', options);
  installWindow(win);
  const api = fakeAuthServer({ 'GET /api/auth/me': () => ({ body: { user: alice } }) });
  const client = createAuth({
    projectId: 'fieldassist',
    baseUrl: BASE,
    fetch: api.fetch,
    auth: { mode, storage: memoryStorage() },
  });
  return { win, api, client };
}

/** The popup opened last, its hosted-page URL parameters, and a way to post from it. */
function lastPopup(win: ReturnType<typeof start>['win']) {
  const { url, popup } = win.popups.at(-1)!;
  const params = Object.fromEntries(new URL(url).searchParams);
  const post = (data: unknown, origin = BASE, source: unknown = popup) => win.emit('message', { origin, source, data });
  return { url, popup, params, post };
}

const tokensMessage = (state: string, projectId = 'fieldassist') => ({
  type: 'BLINK_AUTH_TOKENS',
  ...tokenBody(1),
  projectId,
  state,
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('popup sign-in', () => {
  it('opens the hosted page and signs in with the tokens the popup posts back', async () => {
    const { win, client } = start();
    const pending = client.signInWithGoogle();
    const { params, popup, post } = lastPopup(win);
    expect(params).toMatchObject({
      provider: 'google',
      project_id: 'fieldassist',
      mode: 'popup',
      redirect_url: 'http://app.test',
      opener_origin: 'http://app.test',
    });
    expect(params.state).toMatch(/^[0-9a-f]{32}$/);
    expect(win.sessionStorage.data.get('blink_oauth_state')).toBe(params.state);
    post(tokensMessage(params.state!), 'https://evil.test'); // ignored: untrusted origin
    post(tokensMessage(params.state!), BASE, {}); // ignored: not from the popup
    post(tokensMessage(params.state!));
    expect(await pending).toEqual(alice);
    expect(popup.closed).toBe(true);
    expect(await client.getValidToken()).toBe('at1');
    expect(win.listenerCount('message')).toBe(0);
  });

  it('rejects a different or missing state with VERIFICATION_FAILED "State mismatch"', async () => {
    const { win, client } = start();
    const pending = client.signInWithProvider('github');
    lastPopup(win).post({ ...tokensMessage('0'.repeat(32)) });
    await expect(pending).rejects.toMatchObject({
      name: 'FieldAssistAuthError',
      code: 'VERIFICATION_FAILED',
      message: 'State mismatch',
    });
    const second = client.signInWithProvider('github');
    lastPopup(win).post({ ...tokensMessage(''), state: undefined });
    await expect(second).rejects.toMatchObject({ message: 'State mismatch' });
    expect(client.isAuthenticated()).toBe(false);
  });

  it('rejects another project id with "Project ID mismatch"', async () => {
    const { win, client } = start();
    const pending = client.signInWithMicrosoft();
    const { params, post } = lastPopup(win);
    post(tokensMessage(params.state!, 'other-project'));
    await expect(pending).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Project ID mismatch' });
  });

  it('passes on the page’s BLINK_AUTH_ERROR with the mapped code', async () => {
    const { win, client } = start();
    const pending = client.signInWithApple();
    lastPopup(win).post({
      type: 'BLINK_AUTH_ERROR',
      code: 'auth/popup-closed-by-user',
      message: 'User closed the window',
    });
    await expect(pending).rejects.toMatchObject({
      code: 'POPUP_CANCELED',
      message: 'User closed the window',
      userMessage: 'Sign-in was canceled. Please try again.',
    });
  });

  it('a closed popup is POPUP_CANCELED within a second; no answer in 30 s is AUTH_TIMEOUT', async () => {
    vi.useFakeTimers();
    const { win, client } = start();
    const closed = client.signInWithGoogle();
    const closedResult = expect(closed).rejects.toMatchObject({
      code: 'POPUP_CANCELED',
      message: 'Authentication was canceled',
    });
    lastPopup(win).popup.closed = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await closedResult;

    const silent = client.signInWithGoogle();
    const silentResult = expect(silent).rejects.toMatchObject({
      code: 'AUTH_TIMEOUT',
      message: 'Authentication timed out',
    });
    await vi.advanceTimersByTimeAsync(29_999);
    expect(lastPopup(win).popup.closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await silentResult;
    expect(lastPopup(win).popup.closed).toBe(true);
  });

  it('a blocked popup is POPUP_CANCELED "Popup was blocked"', async () => {
    const { win, client } = start();
    win.blockPopups = true;
    await expect(client.signInWithGoogle()).rejects.toMatchObject({
      code: 'POPUP_CANCELED',
      message: 'Popup was blocked',
    });
  });

  it('falls back to a full-page redirect when the popup has no opener, or when embedded', async () => {
    const { win, client } = start();
    win.popupOpener = null;
    void client.signInWithGoogle({ redirectUrl: 'http://app.test/back' });
    const target = new URL(win.location.href);
    expect(target.pathname).toBe('/auth');
    expect(target.searchParams.get('mode')).toBe('redirect');
    expect(target.searchParams.get('redirect_url')).toBe('http://app.test/back');

    const embedded = start('headless', { embedded: true });
    void embedded.client.signInWithGoogle();
    expect(embedded.win.open).not.toHaveBeenCalled();
    expect(new URL(embedded.win.location.href).searchParams.get('mode')).toBe('redirect');
  });
});

describe('managed mode', () => {
  it('refuses the headless-only methods before any request', async () => {
    const { client, api } = start('managed');
    for (const [name, call] of [
      ['signUp', () => client.signUp({ email: 'a@b.c', password: 'x' })],
      ['signInWithEmail', () => client.signInWithEmail('a@b.c', 'x')],
      ['signInWithProvider', () => client.signInWithProvider('google')],
      ['signInWithGoogle', () => client.signInWithGoogle()],
      ['signInWithGitHub', () => client.signInWithGitHub()],
      ['signInWithApple', () => client.signInWithApple()],
      ['signInWithMicrosoft', () => client.signInWithMicrosoft()],
    ] as const) {
      await expect(call()).rejects.toMatchObject({
        name: 'FieldAssistAuthError',
        code: 'INVALID_CREDENTIALS',
        message: `${name} is only available in headless mode`,
      });
    }
    await client.ready();
    expect(api.calls.filter((c) => c.key !== 'GET /api/auth/me')).toEqual([]);
  });
});
