import type { FastifyInstance } from 'fastify';
import { SignJWT, UnsecuredJWT } from 'jose';
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_AUTH_SECRET, buildTestApp } from '../test-support/test-server.js';
import { type TestUser, signUpUser } from '../test-support/users.js';
import { createTokenSigner } from './tokens.js';

let app: FastifyInstance;
let pool: pg.Pool;
let user: TestUser;

beforeAll(async () => {
  ({ app, pool } = await buildTestApp());
  await signUpUser(app); // the first account (admin)
  user = await signUpUser(app, { role: 'technician' });
});

const jobsAs = (token: string) =>
  app.inject({ method: 'GET', url: '/api/db/fieldassist/rest/v1/jobs', headers: { authorization: `Bearer ${token}` } });
const refresh = (refreshToken: string) =>
  app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: refreshToken } });
const segments = (token: string) => token.split('.') as [string, string, string];
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access tokens', () => {
  it('a valid token reaches the tables', async () => {
    expect((await jobsAs(user.accessToken)).statusCode).toBe(200);
  });

  it.each([
    [
      'tampered claims',
      () => {
        const [h, p, s] = segments(user.accessToken);
        const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
        return `${h}.${b64({ ...claims, sub: 'usr_someone_else' })}.${s}`;
      },
    ],
    [
      'alg none',
      () =>
        new UnsecuredJWT({ email: user.email, sid: 'x', typ: 'access' })
          .setSubject(user.id)
          .setIssuer('fieldassist')
          .setAudience('fieldassist')
          .setExpirationTime('15m')
          .encode(),
    ],
    [
      'alg none with the real signature stripped',
      () => {
        const [, p] = segments(user.accessToken);
        return `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`;
      },
    ],
    [
      'the wrong key',
      () =>
        createTokenSigner('another-secret-of-sufficient-length-000000', 'fieldassist').sign({
          sub: user.id,
          email: user.email,
          sid: 'x',
        }),
    ],
    [
      'another project',
      () => createTokenSigner(TEST_AUTH_SECRET, 'otherproject').sign({ sub: user.id, email: user.email, sid: 'x' }),
    ],
    [
      'HS512 with the right key',
      async () => {
        const key = (await import('node:crypto'))
          .createHash('sha256')
          .update(`access-token:${TEST_AUTH_SECRET}`)
          .digest();
        return new SignJWT({ email: user.email, sid: 'x', typ: 'access' })
          .setProtectedHeader({ alg: 'HS512' })
          .setSubject(user.id)
          .setIssuer('fieldassist')
          .setAudience('fieldassist')
          .setExpirationTime('15m')
          .sign(key);
      },
    ],
    ['garbage', () => 'not.a.jwt'],
  ])('%s is refused with 401 and no rows', async (_name, make) => {
    const res = await jobsAs(await make());
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_TOKEN');
    expect(res.body).not.toContain('"id"');
  });

  it('an expired token is refused as TOKEN_EXPIRED (so clients refresh)', async () => {
    const key = (await import('node:crypto')).createHash('sha256').update(`access-token:${TEST_AUTH_SECRET}`).digest();
    const expired = await new SignJWT({ email: user.email, sid: 'x', typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('fieldassist')
      .setAudience('fieldassist')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 1000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 100)
      .sign(key);
    const res = await jobsAs(expired);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'TOKEN_EXPIRED', message: 'Session expired. Please sign in again.' });
  });

  it('a token of a signed-out session is refused', async () => {
    const session = await signUpUserSession();
    await app.inject({ method: 'POST', url: '/api/auth/signout', payload: { refresh_token: session.refresh_token } });
    expect((await jobsAs(session.access_token)).statusCode).toBe(401);
    expect((await refresh(session.refresh_token)).statusCode).toBe(401);
  });
});

describe('a stale token', () => {
  it('does not stand in the way of routes that need no sign-in', async () => {
    const stale = { authorization: 'Bearer expired.or.forged' };
    const session = await signUpUserSession();
    const refreshed = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: stale,
      payload: { refresh_token: session.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    const providers = await app.inject({ method: 'GET', url: '/api/auth/providers', headers: stale });
    expect(providers.statusCode).toBe(200);
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: stale });
    expect(me.json().code).toBe('INVALID_TOKEN');
  });
});

describe('refresh tokens', () => {
  it('rotate on every use, answering the full token set', async () => {
    const session = await signUpUserSession();
    const res = await refresh(session.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = res.json();
    expect(next).toMatchObject({ token_type: 'Bearer', expires_in: 900, refresh_expires_in: 2592000 });
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect((await jobsAs(next.access_token)).statusCode).toBe(200);
  });

  it('reused inside the grace period return the same new pair (two tabs refreshing at once)', async () => {
    const session = await signUpUserSession();
    const [a, b] = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token)]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect((await refresh(a.json().refresh_token)).statusCode).toBe(200);
  });

  it('reused after the grace period revoke the whole family', async () => {
    const session = await signUpUserSession();
    const rotated = (await refresh(session.refresh_token)).json();
    await pool.query(
      "UPDATE auth_refresh_tokens SET rotated_at = now() - interval '11 seconds' WHERE rotated_at IS NOT NULL",
    );
    const replay = await refresh(session.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 'TOKEN_EXPIRED', message: 'Session expired. Please sign in again.' });
    // The thief's replay also ends the rightful holder's session.
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
    expect((await jobsAs(rotated.access_token)).statusCode).toBe(401);
  });

  it('expired, unknown or missing refresh tokens are refused', async () => {
    const session = await signUpUserSession();
    await pool.query("UPDATE auth_refresh_tokens SET expires_at = now() - interval '1 second'");
    expect((await refresh(session.refresh_token)).statusCode).toBe(401);
    expect((await refresh('rt_unknown')).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/auth/refresh', payload: {} })).json().code).toBe(
      'TOKEN_EXPIRED',
    );
  });
});

async function signUpUserSession() {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/signin/email',
    remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.9`,
    payload: { email: user.email, password: 'correct-horse-battery-9' },
  });
  return res.json() as { access_token: string; refresh_token: string };
}
