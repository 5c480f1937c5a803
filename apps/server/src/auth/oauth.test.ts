import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../db/embedded.js';
import { type OidcPerson, startOidcPeer } from '../test-support/oidc-peer.js';
import { buildTestApp } from '../test-support/test-server.js';
import { signUpUser } from '../test-support/users.js';

// The real authorization code flow against a real OIDC provider on loopback: our server
// listens on a port so the provider's redirects land on it, as a browser would follow them.
let app: FastifyInstance;
let base: string;
let peer: Awaited<ReturnType<typeof startOidcPeer>>;
let person: OidcPerson;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  person = { sub: 'emp-1', email: 'Invited.Tech@Example.com', email_verified: true, name: 'Ivy Tech' };
  peer = await startOidcPeer({ redirectUri: `${base}/api/auth/oauth/callback`, person: () => person });
  ({ app } = await buildTestApp({
    PUBLIC_URL: base,
    PORT: String(port),
    OIDC_ISSUER: peer.issuer,
    OIDC_CLIENT_ID: peer.clientId,
    OIDC_CLIENT_SECRET: peer.clientSecret,
    OIDC_NAME: 'Acme SSO',
  }));
  await app.listen({ port, host: '127.0.0.1' });
  await signUpUser(app, { email: 'admin@example.com' });
  await signUpUser(app, { email: 'invited.tech@example.com', role: 'technician' });
});

afterAll(async () => {
  await app.close();
  await peer.close();
});

/** Follows redirects like a browser, keeping cookies per host, and presses the provider's button. */
async function browse(start: string): Promise<URL> {
  const jar = new Map<string, Map<string, string>>();
  let url = new URL(start);
  let method = 'GET';
  for (let hop = 0; hop < 20; hop++) {
    const cookies = jar.get(url.host) ?? new Map();
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = pair!.split('=');
      cookies.set(name!, value.join('='));
    }
    jar.set(url.host, cookies);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      method = 'GET';
      if (url.pathname === '/auth' && url.origin === base) return url; // back on our hosted page
      continue;
    }
    if (url.pathname.startsWith('/interaction/') && method === 'GET') {
      expect(await res.text()).toContain(`Sign in as ${person.email}`);
      method = 'POST'; // press "Sign in" on the provider's page
      continue;
    }
    throw new Error(`stuck at ${url} (${res.status}): ${await res.text()}`);
  }
  throw new Error('too many redirects');
}

describe('sign-in with a company OIDC provider', () => {
  it('is listed with its name', async () => {
    const res = await fetch(`${base}/api/auth/providers?projectId=fieldassist`);
    expect(await res.json()).toEqual({ providers: ['email', 'magic_link', 'oidc'], oidcName: 'Acme SSO' });
  });

  it('goes to the provider with PKCE, state and nonce, and comes back to the hosted page with a one-time code', async () => {
    const start = new URL(`${base}/api/auth/oauth/oidc/start`);
    start.search = new URLSearchParams({
      redirect_url: `${base}/`,
      mode: 'popup',
      opener_origin: base,
      state: 'client-state-1',
      project_id: 'fieldassist',
    }).toString();
    const first = await fetch(start, { redirect: 'manual' });
    const authorize = new URL(first.headers.get('location')!);
    expect(authorize.origin).toBe(peer.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('state')).not.toBe('client-state-1');

    const landed = await browse(start.toString());
    expect(Object.fromEntries(landed.searchParams)).toMatchObject({
      mode: 'popup',
      opener_origin: base,
      state: 'client-state-1',
      redirect_url: `${base}/`,
    });
    expect(landed.searchParams.get('access_token')).toBeNull();
    const code = landed.searchParams.get('oauth_code');

    const exchange = await fetch(`${base}/api/auth/oauth/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const session = await exchange.json();
    expect(session).toMatchObject({
      token_type: 'Bearer',
      user: { email: 'invited.tech@example.com', emailVerified: true, role: 'technician' },
    });
    const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect((await me.json()).user.email).toBe('invited.tech@example.com');

    const again = await fetch(`${base}/api/auth/oauth/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect((await again.json()).code).toBe('VERIFICATION_FAILED');
  });

  it('refuses an email the provider has not verified', async () => {
    person = { ...person, sub: 'emp-2', email: 'unverified@example.com', email_verified: false };
    const landed = await browse(`${base}/api/auth/oauth/oidc/start?redirect_url=${encodeURIComponent(`${base}/`)}`);
    expect(landed.searchParams.get('oauth_error')).toBe('EMAIL_NOT_VERIFIED');
    expect(landed.searchParams.get('oauth_code')).toBeNull();
  });

  it('keeps uninvited people out (invite mode)', async () => {
    person = { ...person, sub: 'emp-3', email: 'stranger@example.com', email_verified: true };
    const landed = await browse(`${base}/api/auth/oauth/oidc/start`);
    const exchange = await fetch(`${base}/api/auth/oauth/exchange`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: landed.searchParams.get('oauth_code') }),
    });
    expect(exchange.status).toBe(403);
    expect((await exchange.json()).code).toBe('SIGNUP_NOT_ALLOWED');
  });

  it('refuses foreign redirect and opener origins, unknown providers, and forged or replayed states', async () => {
    for (const query of ['redirect_url=https://evil.example/', 'opener_origin=https://evil.example']) {
      const res = await fetch(`${base}/api/auth/oauth/oidc/start?${query}`, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('REDIRECT_NOT_ALLOWED');
    }
    expect((await fetch(`${base}/api/auth/oauth/github/start`, { redirect: 'manual' })).status).toBe(404);
    const forged = await fetch(`${base}/api/auth/oauth/callback?code=abc&state=forged`, { redirect: 'manual' });
    expect(new URL(forged.headers.get('location')!).searchParams.get('oauth_error')).toBe('SIGN_IN_EXPIRED');
  });
});
