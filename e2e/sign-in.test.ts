import { describe, expect, test } from 'vitest';

import { AppShell } from './pages/app-shell.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { LandingPage } from './pages/landing-page.js';
import { createAccount, fetchMe, GOOD_PASSWORD, uniqueEmail } from './support/accounts.js';
import {
  collectErrors,
  openPage,
  saveScreenshot,
  unexpectedErrors,
  VIEWPORT_NAMES,
  type ViewportName,
} from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';

// Open sign-up: several tests create accounts. The first one still becomes admin.
const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

/** From the landing page's Sign In to the signed-in app, through Create an account. */
async function signUpFromLanding(viewport: ViewportName, displayName: string) {
  const opened = await openPage({ browser, viewport, url: `${server.url}/` });
  const { page } = opened;
  await new LandingPage(page).signIn.click();
  await page.waitForURL(/\/auth\?/);
  // SPEC.md section 2: the hosted page's address carries where to return, the project and a state.
  const sent = new URL(page.url()).searchParams;
  expect([...sent.keys()]).toEqual(['redirect_url', 'project_id', 'state']);
  expect(sent.get('redirect_url')).toBe(`${server.url}/`);
  expect(sent.get('project_id')).toBe('fieldassist');
  expect(sent.get('state')).toMatch(/^[0-9a-f]{32}$/);
  const auth = new HostedAuthPage(page);
  const email = uniqueEmail(displayName.split(' ')[0]!.toLowerCase());
  await auth.signUp({ displayName, email, password: GOOD_PASSWORD });
  const app = new AppShell(page);
  await app.waitUntilSignedIn();
  return { ...opened, email, app };
}

// Runs first on this fresh server: its account is the first one.
describe.each(VIEWPORT_NAMES)('sign up on %s', (viewport) => {
  test('creates the account, lands in the app signed in, and stays signed in after a reload', async () => {
    const { page, context, errors, email, app } = await signUpFromLanding(
      viewport,
      viewport === 'desktop' ? 'Dana Admin' : 'Tom Tech',
    );
    try {
      // The tokens came back in the URL; the client stored them and cleaned the address bar.
      expect(page.url()).toBe(`${server.url}/`);
      const tokens = await app.storedTokens();
      expect(tokens?.access_token).toBeTruthy();
      expect(tokens?.refresh_token).toBeTruthy();
      const me = await fetchMe(server.url, tokens!.access_token);
      expect(me.email).toBe(email);
      expect(me.role).toBe(viewport === 'desktop' ? 'admin' : null); // desktop ran first: first account
      await expect(app.signedInAs.textContent()).resolves.toContain(email);
      if (viewport === 'desktop') expect(await app.header.textContent()).toContain('Dana Admin');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      await saveScreenshot(page, `app-signed-in-${viewport}`);

      await page.reload();
      await app.waitUntilSignedIn();
      expect(await app.header.textContent()).toContain('FieldAssist');
      await expect(app.signedInAs.textContent()).resolves.toContain(email);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the sign-in state', () => {
  test('tokens returned with another state than the one the Sign In button sent are refused', async () => {
    const { accessToken, refreshToken } = await createAccount({ serverUrl: server.url, email: uniqueEmail('forged') });
    const { page, context, errors } = await openPage({ browser, viewport: 'phone', url: `${server.url}/` });
    try {
      await new LandingPage(page).signIn.waitFor();
      await saveScreenshot(page, 'landing-phone');
      await new LandingPage(page).signIn.click();
      await page.waitForURL(/\/auth\?/);
      // Instead of the hosted page's answer, a link with someone's tokens and another state.
      const forged = new URLSearchParams({
        access_token: accessToken,
        refresh_token: refreshToken,
        state: 'f'.repeat(32),
      });
      await page.goto(`${server.url}/?${forged.toString()}`);
      const landing = new LandingPage(page);
      await landing.signIn.waitFor();
      expect(page.url()).toBe(`${server.url}/`);
      expect(await new AppShell(page).storedTokens()).toBeNull();
      expect(unexpectedErrors(errors, [/State mismatch/])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORT_NAMES)('sign out on %s', (viewport) => {
  test('signing out in one tab shows the landing page in the other tab too', async () => {
    const { email, password } = await createAccount({ serverUrl: server.url, email: uniqueEmail('tabs') });
    const { page, context, errors } = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
    try {
      await new HostedAuthPage(page).signIn(email, password);
      const first = new AppShell(page);
      await first.waitUntilSignedIn();

      const other = await context.newPage();
      const otherErrors = collectErrors(other);
      await other.goto(`${server.url}/`);
      const second = new AppShell(other);
      await second.waitUntilSignedIn();

      await first.signOut.click();
      await new LandingPage(page).signIn.waitFor();
      await new LandingPage(other).signIn.waitFor();
      expect(await second.signOut.count()).toBe(0);
      expect(await first.storedTokens()).toBeNull();
      await saveScreenshot(other, `signed-out-other-tab-${viewport}`);
      expect([...errors, ...otherErrors]).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(VIEWPORT_NAMES)('hosted page on %s', (viewport) => {
  test('a wrong password shows the SPEC message and keeps the visitor on the form', async () => {
    const { email } = await createAccount({ serverUrl: server.url, email: uniqueEmail('wrong') });
    const { page, context, errors } = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
    try {
      const auth = new HostedAuthPage(page);
      await saveScreenshot(page, `auth-sign-in-${viewport}`);
      await auth.signIn(email, 'not-the-password-1');
      await auth.error.waitFor();
      expect(await auth.error.textContent()).toBe('Invalid email or password. Please try again.');
      expect(await auth.email.inputValue()).toBe(email);
      expect(page.url()).toContain('/auth?');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      await saveScreenshot(page, `auth-wrong-password-${viewport}`);
      expect(unexpectedErrors(errors, [/status of 401/])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a weak password on Create account shows the server's WEAK_PASSWORD message", async () => {
    const { page, context, errors } = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
    try {
      const auth = new HostedAuthPage(page);
      await auth.signUp({ displayName: 'Weak Walt', email: uniqueEmail('weak'), password: 'password' });
      await auth.error.waitFor();
      expect(await auth.error.textContent()).toBe('Password is too weak. Please choose a stronger password.');
      await saveScreenshot(page, `auth-weak-password-${viewport}`);
      expect(unexpectedErrors(errors, [/status of 400/])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('is usable by keyboard alone: Tab reaches the fields and the button, with a visible focus ring', async () => {
    const { email, password } = await createAccount({ serverUrl: server.url, email: uniqueEmail('keys') });
    const { page, context, errors } = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
    try {
      const auth = new HostedAuthPage(page);
      await auth.email.waitFor();
      expect(await auth.email.evaluate((el) => el === document.activeElement)).toBe(true); // focused on arrival
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      expect(await auth.password.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type(password);
      await page.keyboard.press('Tab'); // the show-password toggle
      await page.keyboard.press('Tab');
      const signIn = auth.button('Sign In');
      expect(await signIn.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await signIn.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
      await saveScreenshot(page, `auth-keyboard-focus-${viewport}`);
      await page.keyboard.press('Enter');
      await new AppShell(page).waitUntilSignedIn();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a redirect_url to a foreign site is refused: a 400 page and no form', async () => {
    const { page, context, errors } = await openPage({ browser, viewport, url: `${server.url}/` });
    try {
      const response = await page.goto(
        `${server.url}/auth?redirect_url=${encodeURIComponent('https://evil.example/')}&project_id=fieldassist`,
      );
      expect(response?.status()).toBe(400);
      await page.getByRole('heading', { name: 'Sign-in link not allowed' }).waitFor();
      expect(await page.locator('form, input').count()).toBe(0);
      await saveScreenshot(page, `auth-refused-${viewport}`);
      expect(unexpectedErrors(errors, [/status of 400/])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
