// `client.auth` against the real server (PLATFORM_API.md §2): sign-up and sign-in, the
// session (refresh with rotation, the 401 refresh-and-retry of §1.6, revocation on logout)
// and the emailed flows, read back from the server's outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../apps/server/src/test-support/test-server.js';
import { createClient, FieldAssistAuthError, type FetchLike, type TokenSet } from '../src/index.js';
import { memoryStorage } from './fake-browser.js';
import { type Tables, unique } from './support.js';

const PASSWORD = 'Str0ng-enough-pass';
let url = '';
let projectId = '';

/**
 * A fresh server (open sign-up) for the calling describe block: the server allows 10
 * sign-ups per 10 minutes per address, so each block gets its own budget.
 */
function useAuthServer() {
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const server = await startTestServer({ SIGNUP_MODE: 'open' });
    ({ url, projectId } = server);
    close = server.close;
  });
  afterAll(() => close());
}

/** A headless client with its own storage and a log of every request it sends. */
function newClient() {
  const storage = memoryStorage();
  const sent: { method: string; path: string; authorization?: string; status: number }[] = [];
  const fetch: FetchLike = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const headers = (init.headers ?? {}) as Record<string, string>;
    sent.push({
      method: init.method ?? 'GET',
      path: new URL(input).pathname,
      authorization: headers.Authorization,
      status: response.status,
    });
    return response;
  };
  const client = createClient<Tables>({ projectId, baseUrl: url, fetch, auth: { mode: 'headless', storage } });
  const stored = () => JSON.parse(storage.data.get(`blink_tokens_${projectId}`) ?? 'null') as TokenSet | null;
  return { client, storage, sent, stored };
}

const email = (name: string) => `${unique(name)}@example.com`.toLowerCase();

async function failure(promise: Promise<unknown>): Promise<FieldAssistAuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FieldAssistAuthError);
  return error as FieldAssistAuthError;
}

/** POST /api/auth/refresh with a raw refresh token, as another tab would. */
async function rawRefresh(refreshToken: string) {
  const response = await fetch(`${url}/api/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The newest emailed link to `to` that carries query parameter `param`; its value. */
async function emailedToken(to: string, param: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const response = await fetch(`${url}/dev/outbox.json?to=${encodeURIComponent(to)}`);
    const body = (await response.json()) as
      { messages?: { to: string[]; text?: string }[] } | { to: string[]; text?: string }[];
    const messages = Array.isArray(body) ? body : (body.messages ?? []);
    for (const message of messages) {
      if (!message.to.includes(to)) continue;
      for (const link of message.text?.match(/https?:\/\/\S+/g) ?? []) {
        const value = new URL(link).searchParams.get(param);
        if (value) return value;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no email to ${to} with a ${param} link`);
}

describe('sign-up and sign-in', () => {
  useAuthServer();

  it('signUp creates the account, stores the token set and authenticates', async () => {
    const { client, stored } = newClient();
    const address = email('signup');
    const user = await client.auth.signUp({ email: address, password: PASSWORD, displayName: 'Sam Tech' });
    expect(user).toMatchObject({ email: address, displayName: 'Sam Tech', emailVerified: false });
    expect(stored()).toMatchObject({ token_type: 'Bearer', expires_in: 900, refresh_expires_in: 2_592_000 });
    expect(stored()?.issued_at).toBeCloseTo(Date.now() / 1000, -1);
    expect(client.auth.getState()).toEqual({ user, isLoading: false, isAuthenticated: true });
    expect(await client.auth.me()).toEqual(user);
  });

  it('signInWithEmail signs in; me() and updateMe() read and change the profile', async () => {
    const address = email('signin');
    await newClient().client.auth.signUp({ email: address, password: PASSWORD });
    const { client } = newClient();
    const user = await client.auth.signInWithEmail(address, PASSWORD);
    expect(user.email).toBe(address);
    expect((await client.auth.me()).id).toBe(user.id);
    const updated = await client.auth.updateMe({ displayName: 'Renamed' });
    expect(updated).toMatchObject({ id: user.id, displayName: 'Renamed' });
    expect((await client.auth.me()).displayName).toBe('Renamed');
    expect(await client.auth.getAvailableProviders()).toContain('email');
  });

  it('answers the SPEC.md codes and texts for weak passwords, taken emails and wrong credentials', async () => {
    const { client } = newClient();
    const weak = await failure(client.auth.signUp({ email: email('weak'), password: 'short' }));
    expect([weak.code, weak.userMessage]).toEqual([
      'WEAK_PASSWORD',
      'Password is too weak. Please choose a stronger password.',
    ]);
    expect(weak.retryable).toBe(false);

    const address = email('taken');
    await newClient().client.auth.signUp({ email: address, password: PASSWORD });
    const taken = await failure(client.auth.signUp({ email: address, password: PASSWORD }));
    expect([taken.code, taken.status, taken.userMessage]).toEqual([
      'EMAIL_ALREADY_EXISTS',
      409,
      'An account with this email already exists.',
    ]);

    const wrong = await failure(client.auth.signInWithEmail(address, 'Wrong-password-1'));
    expect([wrong.code, wrong.userMessage]).toEqual([
      'INVALID_CREDENTIALS',
      'Invalid email or password. Please try again.',
    ]);
    const unknown = await failure(client.auth.signInWithEmail(email('nobody'), PASSWORD));
    expect(unknown.code).toBe('INVALID_CREDENTIALS');
    const invalid = await failure(client.auth.signInWithEmail('not-an-email', PASSWORD));
    expect([invalid.code, invalid.userMessage]).toEqual(['INVALID_EMAIL', 'Please enter a valid email address.']);
    expect(client.auth.isAuthenticated()).toBe(false);
  });
});

describe('the session', () => {
  useAuthServer();

  it('refresh rotates the stored refresh token; the old one still answers inside the grace period', async () => {
    const { client, stored } = newClient();
    await client.auth.signUp({ email: email('rotate'), password: PASSWORD });
    const before = stored()!;
    expect(await client.auth.refresh()).toBe(true);
    const after = stored()!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).not.toBe(before.access_token);
    expect(client.auth.isAuthenticated()).toBe(true);
    // A second tab refreshing with the old token at the same moment gets the same new pair.
    const again = await rawRefresh(before.refresh_token!);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ access_token: after.access_token, refresh_token: after.refresh_token });
  });

  it('db calls carry the access token; signed out they are refused with an auth error', async () => {
    const { client, sent } = newClient();
    const user = await client.auth.signUp({ email: email('db'), password: PASSWORD });
    const job = await client.db.jobs.create({
      userId: user.id,
      title: 'Fix pump',
      description: 'Leaks',
      priority: 'high',
    });
    expect(job.userId).toBe(user.id);
    const token = await client.auth.getValidToken();
    expect(sent.find((r) => r.path.endsWith('/rest/v1/jobs'))?.authorization).toBe(`Bearer ${token}`);
    expect((await client.db.jobs.list()).map((j) => j.id)).toEqual([job.id]);

    const anonymous = newClient().client;
    const refused = await failure(anonymous.db.jobs.list());
    expect([refused.status, refused.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('an access token the server refuses leads to one refresh and one retry', async () => {
    const { client, sent, stored } = newClient();
    const user = await client.auth.signUp({ email: email('retry'), password: PASSWORD });
    const good = stored()!;
    await client.auth.setSession({ ...good, access_token: 'not-a-valid-jwt' }, { persist: false });
    sent.length = 0;
    const jobs = await client.db.jobs.list();
    expect(jobs).toEqual([]);
    expect(
      sent.map((r) => `${r.method} ${r.path.replace(/^\/api\/(db\/[^/]+\/rest\/v1|auth)/, '')} ${r.status}`),
    ).toEqual(['GET /jobs 401', 'POST /refresh 200', 'GET /me 200', 'GET /jobs 200']);
    expect(sent[3]?.authorization).toBe(`Bearer ${stored()!.access_token}`);
    expect(stored()!.refresh_token).not.toBe(good.refresh_token);
    expect(client.auth.currentUser()?.id).toBe(user.id);
  });

  it('an access token expired by the clock is refreshed before the request is sent', async () => {
    const { client, sent, stored } = newClient();
    await client.auth.signUp({ email: email('expired'), password: PASSWORD });
    await client.auth.setSession({ ...stored()!, issued_at: Math.floor(Date.now() / 1000) - 880 });
    sent.length = 0;
    await client.db.jobs.list();
    expect(sent.map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200', 'GET 200', 'GET 200']);
    expect(sent[0]?.path).toBe('/api/auth/refresh');
  });

  it('a refresh refused with 401 clears the session', async () => {
    const { client, stored } = newClient();
    await client.auth.signUp({ email: email('revoked'), password: PASSWORD });
    // The session is ended elsewhere (another device signs it out).
    await fetch(`${url}/api/auth/signout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh_token: stored()!.refresh_token }),
    });
    const refused = await failure(client.db.jobs.list());
    expect(refused.status).toBe(401);
    expect(client.auth.isAuthenticated()).toBe(false);
    expect(stored()).toBeNull();
    expect(await client.auth.getValidToken()).toBeNull();
  });

  it('logout forgets the session and the server revokes it', async () => {
    const { client, stored } = newClient();
    await client.auth.signUp({ email: email('logout'), password: PASSWORD });
    const ended = stored()!;
    await client.auth.logout();
    expect(stored()).toBeNull();
    expect(client.auth.getState()).toEqual({ user: null, isLoading: false, isAuthenticated: false });
    expect((await rawRefresh(ended.refresh_token!)).status).toBe(401);
    const me = await fetch(`${url}/api/auth/me`, { headers: { Authorization: `Bearer ${ended.access_token}` } });
    expect(me.status).toBe(401);
    await expect(client.auth.me()).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Not authenticated' });
  });
});

describe('emailed flows', () => {
  useAuthServer();

  it('magic link: the emailed token signs in once', async () => {
    const address = email('magic');
    const { client } = newClient();
    await client.auth.sendMagicLink(address);
    const token = await emailedToken(address, 'magic_token');
    const user = await client.auth.verifyMagicLink(token);
    expect(user).toMatchObject({ email: address, emailVerified: true });
    expect(client.auth.isAuthenticated()).toBe(true);
    const reused = await failure(newClient().client.auth.verifyMagicLink(token));
    expect([reused.code, reused.userMessage]).toEqual([
      'VERIFICATION_FAILED',
      'Verification failed. Please try again.',
    ]);
  });

  it('password reset: the emailed token sets a new password and ends old sessions', async () => {
    const address = email('reset');
    const first = newClient();
    await first.client.auth.signUp({ email: address, password: PASSWORD });
    await newClient().client.auth.sendPasswordResetEmail(address);
    const token = await emailedToken(address, 'reset_token');
    await newClient().client.auth.confirmPasswordReset(token, 'Brand-new-pass-2');
    const { client } = newClient();
    expect((await failure(client.auth.signInWithEmail(address, PASSWORD))).code).toBe('INVALID_CREDENTIALS');
    expect((await client.auth.signInWithEmail(address, 'Brand-new-pass-2')).email).toBe(address);
    expect(await first.client.auth.refresh()).toBe(false);
    expect(first.client.auth.isAuthenticated()).toBe(false);
  });

  it('changePassword checks the old password and the strength of the new one', async () => {
    const address = email('change');
    const { client } = newClient();
    await client.auth.signUp({ email: address, password: PASSWORD });
    expect((await failure(client.auth.changePassword('Wrong-old-pass-1', 'Another-pass-3'))).code).toBe(
      'INVALID_CREDENTIALS',
    );
    expect((await failure(client.auth.changePassword(PASSWORD, 'weak'))).code).toBe('WEAK_PASSWORD');
    await client.auth.changePassword(PASSWORD, 'Another-pass-3');
    expect((await newClient().client.auth.signInWithEmail(address, 'Another-pass-3')).email).toBe(address);
    expect(client.auth.isAuthenticated()).toBe(true); // this session stays
  });

  it('email verification: the emailed token verifies the address', async () => {
    const address = email('verify');
    const { client } = newClient();
    await client.auth.signUp({ email: address, password: PASSWORD });
    await client.auth.sendEmailVerification();
    await client.auth.verifyEmail(await emailedToken(address, 'verify_token'));
    expect((await client.auth.me()).emailVerified).toBe(true);
    expect((await failure(client.auth.sendEmailVerification())).code).toBe('VERIFICATION_FAILED');
  });

  it('deleteAccount removes the account and signs out', async () => {
    const address = email('delete');
    const { client, stored } = newClient();
    await client.auth.signUp({ email: address, password: PASSWORD });
    await client.auth.deleteAccount();
    expect(stored()).toBeNull();
    expect(client.auth.isAuthenticated()).toBe(false);
    expect((await failure(client.auth.signInWithEmail(address, PASSWORD))).code).toBe('INVALID_CREDENTIALS');
    expect((await failure(client.auth.deleteAccount())).code).toBe('TOKEN_EXPIRED');
  });
});
