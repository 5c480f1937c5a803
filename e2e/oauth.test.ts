import { afterAll, describe, expect, test } from 'vitest';

import { type OidcPerson, startOidcPeer } from '../apps/server/src/test-support/oidc-peer.js';
import { AppShell } from './pages/app-shell.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { fetchMe, uniqueEmail } from './support/accounts.js';
import { openPage, saveScreenshot, unexpectedErrors, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { findFreePort } from './support/server.js';

// A real OpenID Connect provider on loopback stands in for the company's single sign-on.
let person: OidcPerson;

// The stand-in provider's pages are not ours: its missing favicon is not our console error.
const PEER_NOISE = [/status of 404 .*\/favicon\.ico/];

const port = await findFreePort();
const peer = await startOidcPeer({
  redirectUri: `http://127.0.0.1:${port}/api/auth/oauth/callback`,
  person: () => person,
});
afterAll(() => peer.close());
const { server, browser } = await startServerAndBrowser(
  {
    SIGNUP_MODE: 'open',
    OIDC_ISSUER: peer.issuer,
    OIDC_CLIENT_ID: peer.clientId,
    OIDC_CLIENT_SECRET: peer.clientSecret,
    OIDC_NAME: 'Acme SSO',
    // Listed but never contacted here: the buttons are what is checked.
    GOOGLE_CLIENT_ID: 'google-id',
    GOOGLE_CLIENT_SECRET: 'google-secret',
    MICROSOFT_CLIENT_ID: 'microsoft-id',
    MICROSOFT_CLIENT_SECRET: 'microsoft-secret',
    GITHUB_CLIENT_ID: 'github-id',
    GITHUB_CLIENT_SECRET: 'github-secret',
    APPLE_CLIENT_ID: 'apple-id',
    APPLE_CLIENT_SECRET: 'apple-secret',
  },
  { port },
);

describe.each(VIEWPORT_NAMES)('provider sign-in on %s', (viewport) => {
  test('shows one button per configured provider, each carrying the page parameters to the start endpoint', async () => {
    const url = HostedAuthPage.url(server.url, { state: 's-1' });
    const { page, context, errors } = await openPage({ browser, viewport, url });
    try {
      const auth = new HostedAuthPage(page);
      for (const name of ['Google', 'Microsoft', 'GitHub', 'Apple', 'Acme SSO'])
        await auth.providerLink(name).waitFor();
      const query = new URLSearchParams({
        redirect_url: `${server.url}/`,
        state: 's-1',
        project_id: 'fieldassist',
      }).toString();
      expect(await auth.providerLink('Google').getAttribute('href')).toBe(`/api/auth/oauth/google/start?${query}`);
      expect(await auth.providerLink('Acme SSO').getAttribute('href')).toBe(`/api/auth/oauth/oidc/start?${query}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      await saveScreenshot(page, `auth-providers-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the company provider signs in through its own page and lands in the app', async () => {
    person = { sub: `sub-${viewport}`, email: uniqueEmail(`sso-${viewport}`), email_verified: true, name: 'Sam Sso' };
    const { page, context, errors } = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
    try {
      await new HostedAuthPage(page).providerLink('Acme SSO').click();
      await page.getByRole('button', { name: `Sign in as ${person.email}` }).click();
      const app = new AppShell(page);
      await app.waitUntilSignedIn();
      expect(page.url()).toBe(`${server.url}/`);
      const me = await fetchMe(server.url, (await app.storedTokens())!.access_token);
      expect(me).toMatchObject({ email: person.email, displayName: 'Sam Sso' });
      expect(unexpectedErrors(errors, PEER_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('provider sign-in, other paths', () => {
  test("?provider=oidc (the client's signInWithProvider) goes straight to the provider", async () => {
    person = { sub: 'sub-direct', email: uniqueEmail('direct'), email_verified: true, name: 'Dee Rect' };
    const { page, context, errors } = await openPage({
      browser,
      viewport: 'desktop',
      url: HostedAuthPage.url(server.url, { provider: 'oidc', mode: 'redirect', state: 'st-9' }),
    });
    try {
      await page.getByRole('button', { name: `Sign in as ${person.email}` }).click();
      await new AppShell(page).waitUntilSignedIn();
      expect(unexpectedErrors(errors, PEER_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a provider answer that cannot be used comes back to the form with the reason', async () => {
    person = { sub: 'sub-unverified', email: uniqueEmail('unverified'), email_verified: false, name: 'Una Verified' };
    const { page, context, errors } = await openPage({
      browser,
      viewport: 'phone',
      url: HostedAuthPage.url(server.url),
    });
    try {
      const auth = new HostedAuthPage(page);
      await auth.providerLink('Acme SSO').click();
      await page.getByRole('button', { name: `Sign in as ${person.email}` }).click();
      await auth.error.waitFor();
      expect(await auth.error.textContent()).toBe('Please verify your email address before signing in.');
      expect(page.url()).not.toContain('oauth_error');
      expect(await new AppShell(page).storedTokens()).toBeNull();
      await saveScreenshot(page, 'auth-provider-refused-phone');
      expect(unexpectedErrors(errors, PEER_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
