import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';
import { TEST_PASSWORD, type TestUser, signUpUser } from '../test-support/users.js';

let app: FastifyInstance;
let admin: TestUser;

beforeAll(async () => {
  ({ app } = await buildTestApp());
  admin = await signUpUser(app, { email: 'first@example.com' });
});

const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers,
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });
const me = (token: string) =>
  app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
const outboxLink = async (to: string) => {
  const res = await app.inject({ method: 'GET', url: `/dev/outbox.json?to=${encodeURIComponent(to)}` });
  return new URL(res.json().messages[0].links[0] as string);
};

describe('sign-up', () => {
  it('makes the first account on a fresh install an admin, and answers the full token set', async () => {
    expect(admin.role).toBe('admin');
    const res = await me(admin.accessToken);
    expect(res.json().user).toMatchObject({
      id: admin.id,
      email: 'first@example.com',
      displayName: 'first',
      emailVerified: false,
      role: 'admin',
    });
    const signIn = await post('/api/auth/signin/email', {
      email: 'First@Example.com',
      password: TEST_PASSWORD,
      projectId: 'fieldassist',
    });
    expect(signIn.json()).toMatchObject({
      token_type: 'Bearer',
      expires_in: 900,
      refresh_expires_in: 2592000,
      user: { email: 'first@example.com' },
    });
    expect(signIn.json().refresh_token).toMatch(/^rt_/);
  });

  it('is closed to emails no admin added (SIGNUP_MODE=invite)', async () => {
    const res = await post('/api/auth/signup', { email: 'stranger@example.com', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'This email has not been invited. Ask an admin to add you.',
      message: 'This email has not been invited. Ask an admin to add you.',
      code: 'SIGNUP_NOT_ALLOWED',
    });
  });

  it('creates the users row and gives an invited role', async () => {
    const tech = await signUpUser(app, { role: 'technician' });
    expect(tech.role).toBe('technician');
    const row = await app.inject({
      method: 'GET',
      url: `/api/db/fieldassist/rest/v1/users?id=eq.${tech.email}`,
      headers: admin.headers,
    });
    expect(row.json()).toMatchObject([{ id: tech.email, email: tech.email, email_verified: 0, role: 'technician' }]);
    expect(row.json()[0].last_sign_in).toBeTruthy();
  });

  it.each([
    [
      { email: 'first@example.com', password: TEST_PASSWORD },
      409,
      'EMAIL_ALREADY_EXISTS',
      'An account with this email already exists.',
    ],
    [{ email: 'not-an-email', password: TEST_PASSWORD }, 400, 'INVALID_EMAIL', 'Please enter a valid email address.'],
    [{ password: TEST_PASSWORD }, 400, 'INVALID_EMAIL', 'Please enter a valid email address.'],
    [
      { email: 'new@example.com', password: 'short1' },
      400,
      'WEAK_PASSWORD',
      'Password is too weak. Please choose a stronger password.',
    ],
    [
      { email: 'new@example.com', password: 'password1' },
      400,
      'WEAK_PASSWORD',
      'Password is too weak. Please choose a stronger password.',
    ],
    [
      { email: 'new@example.com', password: 'onlyletters' },
      400,
      'WEAK_PASSWORD',
      'Password is too weak. Please choose a stronger password.',
    ],
    [
      { email: 'new@example.com', password: TEST_PASSWORD, projectId: 'other' },
      404,
      'PROJECT_NOT_FOUND',
      "Project 'other' not found",
    ],
    // Wrongly typed fields (read by zod at the boundary) get the same codes as missing ones.
    [{ email: 42, password: TEST_PASSWORD }, 400, 'INVALID_EMAIL', 'Please enter a valid email address.'],
    [
      { email: 'new@example.com', password: ['x'] },
      400,
      'WEAK_PASSWORD',
      'Password is too weak. Please choose a stronger password.',
    ],
    [
      { email: 'new@example.com', password: TEST_PASSWORD, projectId: 7 },
      404,
      'PROJECT_NOT_FOUND',
      "Project '7' not found",
    ],
  ])('refuses %j with %i %s', async (body, status, code, message) => {
    const res = await post('/api/auth/signup', body);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: message, message, code });
  });
});

describe('sign-in', () => {
  it('answers the same refusal for a wrong password and an unknown email', async () => {
    const wrong = await post('/api/auth/signin/email', { email: 'first@example.com', password: 'wrong-password-1' });
    const unknown = await post('/api/auth/signin/email', { email: 'nobody@example.com', password: 'wrong-password-1' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: 'Invalid email or password. Please try again.',
        message: 'Invalid email or password. Please try again.',
        code: 'INVALID_CREDENTIALS',
      });
    }
  });

  it('limits password guessing per address and email', async () => {
    const guess = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/signin/email',
        remoteAddress: '10.200.0.1',
        payload: { email: 'first@example.com', password: 'guess-123456' },
      });
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await guess()).statusCode);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(401));
    const limited = await guess();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait a moment and try again.',
    });
    // Another address is not held back by the first one's guesses.
    const other = await app.inject({
      method: 'POST',
      url: '/api/auth/signin/email',
      remoteAddress: '10.200.0.2',
      payload: { email: 'first@example.com', password: TEST_PASSWORD },
    });
    expect(other.statusCode).toBe(200);
    // Nor another email from the same address: the count is per address and email.
    const otherEmail = await app.inject({
      method: 'POST',
      url: '/api/auth/signin/email',
      remoteAddress: '10.200.0.1',
      payload: { email: 'someone-else@example.com', password: 'guess-123456' },
    });
    expect(otherEmail.statusCode).toBe(401);
  });
});

describe('me', () => {
  it('needs a token', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  });

  it('updates the display name and photo, and never the email or role', async () => {
    const user = await signUpUser(app, { role: 'viewer' });
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: user.headers,
      payload: {
        displayName: 'Dana Field',
        photoURL: 'https://cdn.example.com/a.png',
        email: 'evil@example.com',
        role: 'admin',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      displayName: 'Dana Field',
      photoURL: 'https://cdn.example.com/a.png',
      email: user.email,
      role: 'viewer',
    });
    const row = await app.inject({
      method: 'GET',
      url: `/api/db/fieldassist/rest/v1/users?id=eq.${user.email}`,
      headers: user.headers,
    });
    expect(row.json()[0]).toMatchObject({ display_name: 'Dana Field', avatar_url: 'https://cdn.example.com/a.png' });
    const bad = await app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: user.headers,
      payload: { photoURL: 'javascript:alert(1)' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('password reset and change', () => {
  it('resets through the emailed link, then old sessions end', async () => {
    const user = await signUpUser(app, { role: 'technician' });
    expect((await post('/api/auth/password/reset', { email: user.email, projectId: 'fieldassist' })).statusCode).toBe(
      200,
    );
    expect((await post('/api/auth/password/reset', { email: 'nobody@example.com' })).statusCode).toBe(200);
    const link = await outboxLink(user.email);
    expect(link.pathname).toBe('/auth');
    const token = link.searchParams.get('reset_token');
    const done = await post('/api/auth/password/reset/confirm', {
      token,
      password: 'a-new-password-2',
      projectId: 'fieldassist',
    });
    expect(done.statusCode).toBe(200);
    expect(
      (await post('/api/auth/password/reset/confirm', { token, password: 'another-password-3' })).json().code,
    ).toBe('VERIFICATION_FAILED');
    expect((await me(user.accessToken)).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refresh_token: user.refreshToken })).statusCode).toBe(401);
    expect((await post('/api/auth/signin/email', { email: user.email, password: 'a-new-password-2' })).statusCode).toBe(
      200,
    );
  });

  it('changes the password, keeping this session and ending the others', async () => {
    const user = await signUpUser(app, { role: 'manager' });
    const other = (await post('/api/auth/signin/email', { email: user.email, password: TEST_PASSWORD })).json();
    const wrongOld = await post(
      '/api/auth/password/change',
      { oldPassword: 'nope-nope-1', newPassword: 'changed-pass-4' },
      user.headers,
    );
    expect(wrongOld.json().code).toBe('INVALID_CREDENTIALS');
    const weak = await post(
      '/api/auth/password/change',
      { oldPassword: TEST_PASSWORD, newPassword: 'weak' },
      user.headers,
    );
    expect(weak.json().code).toBe('WEAK_PASSWORD');
    expect(
      (
        await post(
          '/api/auth/password/change',
          { oldPassword: TEST_PASSWORD, newPassword: 'changed-pass-4' },
          user.headers,
        )
      ).statusCode,
    ).toBe(200);
    expect((await me(user.accessToken)).statusCode).toBe(200);
    expect((await me(other.access_token)).statusCode).toBe(401);
  });

  it('generates reset and magic-link tokens for the service key only', async () => {
    for (const url of ['/api/auth/password/reset/generate', '/api/auth/signin/magic/generate']) {
      expect((await post(url, { email: admin.email })).statusCode).toBe(403);
      expect((await post(url, { email: admin.email }, admin.headers)).statusCode).toBe(403);
      const res = await post(
        url,
        { email: admin.email },
        { authorization: 'Bearer blnk_sk_test_service_key_for_tests_only_0123456789' },
      );
      expect(res.json()).toMatchObject({ token: expect.any(String), expiresAt: expect.any(String) });
    }
  });
});

describe('magic link', () => {
  it('signs in only on the POST from the hosted page, once', async () => {
    const user = await signUpUser(app, { role: 'viewer' });
    const res = await post('/api/auth/signin/magic', {
      email: user.email,
      redirectUrl: 'http://127.0.0.1:3000/jobs',
      projectId: 'fieldassist',
    });
    expect(res.statusCode).toBe(200);
    const link = await outboxLink(user.email);
    expect(link.searchParams.get('redirect_url')).toBe('http://127.0.0.1:3000/jobs');
    const token = link.searchParams.get('magic_token');
    // A mail scanner opening the link changes nothing: the page itself is inert.
    await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const signIn = await post('/api/auth/signin/magic/verify', { token, projectId: 'fieldassist' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ user: { email: user.email, emailVerified: true }, token_type: 'Bearer' });
    expect((await post('/api/auth/signin/magic/verify', { token })).json().code).toBe('VERIFICATION_FAILED');
  });

  it('refuses links to foreign origins and sends nothing to uninvited emails', async () => {
    const foreign = await post('/api/auth/signin/magic', {
      email: admin.email,
      redirectUrl: 'https://evil.example/steal',
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('REDIRECT_NOT_ALLOWED');
    const notText = await post('/api/auth/password/reset', {
      email: admin.email,
      redirectUrl: { href: 'https://evil.example' },
    });
    expect(notText.json()).toMatchObject({
      code: 'REDIRECT_NOT_ALLOWED',
      message: 'redirectUrl must be on one of the allowed origins (APP_ORIGINS)',
    });
    for (const [url, body, code] of [
      ['/api/auth/signin/email', { email: admin.email, password: 12345678 }, 'INVALID_CREDENTIALS'],
      ['/api/auth/refresh', { refresh_token: 42 }, 'TOKEN_EXPIRED'],
      ['/api/auth/email/verify', { token: { id: 1 } }, 'VERIFICATION_FAILED'],
      ['/api/auth/password/reset/confirm', { token: 'x', password: false }, 'WEAK_PASSWORD'],
      ['/api/auth/oauth/exchange', ['not', 'an', 'object'], 'VERIFICATION_FAILED'],
    ] as const)
      expect((await post(url, body)).json().code, url).toBe(code);
    expect((await post('/api/auth/signin/magic', { email: 'uninvited@example.com' })).statusCode).toBe(200);
    const outbox = await app.inject({ method: 'GET', url: '/dev/outbox.json?to=uninvited@example.com' });
    expect(outbox.json().messages).toEqual([]);
  });

  it("answers 'No magic link token found' without a token and MAGIC_LINK_EXPIRED after 15 minutes", async () => {
    expect((await post('/api/auth/signin/magic/verify', {})).json()).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: 'No magic link token found',
    });
    const generated = await post(
      '/api/auth/signin/magic/generate',
      { email: admin.email },
      { authorization: 'Bearer blnk_sk_test_service_key_for_tests_only_0123456789' },
    );
    await app.inject({
      method: 'POST',
      url: '/api/db/fieldassist/sql',
      headers: { authorization: 'Bearer blnk_sk_test_service_key_for_tests_only_0123456789' },
      payload: {
        query: "UPDATE auth_one_time_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'magic'",
      },
    });
    const expired = await post('/api/auth/signin/magic/verify', { token: generated.json().token });
    expect(expired.json()).toEqual({
      error: 'Magic link has expired. Please request a new one.',
      message: 'Magic link has expired. Please request a new one.',
      code: 'MAGIC_LINK_EXPIRED',
    });
  });
});

describe('email verification', () => {
  it('verifies through the emailed link, then refuses a second time', async () => {
    const user = await signUpUser(app, { role: 'viewer' });
    expect((await post('/api/auth/email/verify/send', undefined, user.headers)).statusCode).toBe(200);
    const token = (await outboxLink(user.email)).searchParams.get('verify_token');
    expect((await post('/api/auth/email/verify', { token, projectId: 'fieldassist' })).statusCode).toBe(200);
    expect((await me(user.accessToken)).json().user.emailVerified).toBe(true);
    const again = await post('/api/auth/email/verify/generate', undefined, user.headers);
    expect(again.json()).toMatchObject({
      code: 'VERIFICATION_FAILED',
      message: 'This email address is already verified.',
    });
  });
});

describe('providers and account deletion', () => {
  it('lists email and magic link always', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/providers?projectId=fieldassist' });
    expect(res.json()).toEqual({ providers: ['email', 'magic_link'], oidcName: null });
  });

  it('deletes an account with its data, and keeps the only admin', async () => {
    const user = await signUpUser(app, { role: 'technician' });
    await app.inject({
      method: 'POST',
      url: '/api/db/fieldassist/rest/v1/jobs',
      headers: user.headers,
      payload: { user_id: user.id, title: 't', description: 'd' },
    });
    const res = await app.inject({ method: 'DELETE', url: '/api/auth/account', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect((await me(user.accessToken)).statusCode).toBe(401);
    const left = await post(
      '/api/db/fieldassist/sql',
      {
        query:
          'SELECT (SELECT count(*) FROM jobs WHERE user_id = ?)::int AS jobs, (SELECT count(*) FROM users WHERE id = ?)::int AS users',
        params: [user.id, user.email],
      },
      { authorization: 'Bearer blnk_sk_test_service_key_for_tests_only_0123456789' },
    );
    expect(left.json().rows).toEqual([{ jobs: 0, users: 0 }]);
    const onlyAdmin = await app.inject({ method: 'DELETE', url: '/api/auth/account', headers: admin.headers });
    expect(onlyAdmin.statusCode).toBe(409);
  });
});

describe('the hosted page', () => {
  it('refuses a redirect_url or opener_origin that is not allowed, before any page loads', async () => {
    for (const query of [
      'redirect_url=https://evil.example/',
      'redirect_url=javascript:alert(1)',
      'opener_origin=https://evil.example',
      'project_id=other',
    ]) {
      const res = await app.inject({ method: 'GET', url: `/auth?${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Sign-in link not allowed');
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });

  it('takes redirect_url, project_id, provider and state as the SDK sends them, and refuses a damaged state or provider', async () => {
    const sent = new URLSearchParams({
      redirect_url: 'http://127.0.0.1:3000/',
      project_id: 'fieldassist',
      provider: 'google',
      state: 'a'.repeat(32),
    });
    // Past the checks: this test app has no web build to serve.
    expect((await app.inject({ method: 'GET', url: `/auth?${sent.toString()}` })).statusCode).toBe(404);
    for (const damaged of [
      ['state', '<script>'],
      ['state', 'x'.repeat(129)],
      ['provider', 'Google"'],
    ] as const) {
      const res = await app.inject({
        method: 'GET',
        url: `/auth?${new URLSearchParams({ ...Object.fromEntries(sent), [damaged[0]]: damaged[1] }).toString()}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('This sign-in link is damaged.');
    }
  });
});
