import { describe, expect, test } from 'vitest';

import { AppShell } from './pages/app-shell.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { createAccount, fetchMe, GOOD_PASSWORD, uniqueEmail } from './support/accounts.js';
import { collectErrors, openPage, saveScreenshot, unexpectedErrors, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { waitForEmailLink } from './support/outbox.js';

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

describe.each(VIEWPORT_NAMES)('sign-in link on %s', (viewport) => {
  test('request a link, open it from the email, press Sign In, land in the app signed in', async () => {
    const email = uniqueEmail('magic');
    const { page, context, errors } = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
    try {
      const auth = new HostedAuthPage(page);
      await auth.requestMagicLink(email);
      expect(await auth.status.first().textContent()).toContain(email);
      await saveScreenshot(page, `auth-magic-link-sent-${viewport}`);

      const link = await waitForEmailLink({ serverUrl: server.url, to: email, pathPart: '/auth?magic_token=' });
      await page.goto(link);
      // Opening the link signs nobody in (mail scanners open links too): a button does.
      await auth.heading.filter({ hasText: 'Sign in with your email link' }).waitFor();
      expect(await new AppShell(page).storedTokens()).toBeNull();
      await saveScreenshot(page, `auth-magic-link-landing-${viewport}`);
      await auth.button('Sign In').click();

      const app = new AppShell(page);
      await app.waitUntilSignedIn();
      expect(page.url()).toBe(`${server.url}/`);
      expect((await fetchMe(server.url, (await app.storedTokens())!.access_token)).email).toBe(email);

      // The link works once.
      await page.goto(link);
      await auth.button('Sign In').click();
      await auth.error.waitFor();
      expect(await auth.error.textContent()).toBe('Verification failed. Please try again.');
      expect(unexpectedErrors(errors, [/status of 400/])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('password reset', () => {
  test('Forgot password? emails a link; the new password is set there and then signs in', async () => {
    const { email } = await createAccount({ serverUrl: server.url, email: uniqueEmail('reset') });
    const { page, context, errors } = await openPage({
      browser,
      viewport: 'phone',
      url: HostedAuthPage.url(server.url),
    });
    try {
      const auth = new HostedAuthPage(page);
      await auth.requestPasswordReset(email);
      expect(await auth.status.first().textContent()).toContain(`If an account exists for ${email}, we sent a link`);

      const link = await waitForEmailLink({ serverUrl: server.url, to: email, pathPart: '/auth?reset_token=' });
      await page.goto(link);
      await auth.heading.filter({ hasText: 'Choose a new password' }).waitFor();
      const newPassword = 'Torque-wrench-77';
      await auth.newPassword.fill(newPassword);
      await auth.button('Save New Password').click();
      await auth.heading.filter({ hasText: 'Password changed' }).waitFor();
      await saveScreenshot(page, 'auth-password-changed-phone');

      await auth.button('Sign In').click();
      expect(page.url()).not.toContain('reset_token');
      await auth.signIn(email, newPassword);
      await new AppShell(page).waitUntilSignedIn();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('email verification', () => {
  test('the emailed link shows a Verify Email button that confirms the address', async () => {
    const { email, password } = await createAccount({ serverUrl: server.url, email: uniqueEmail('verify') });
    const signIn = await fetch(`${server.url}/api/auth/signin/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, projectId: 'fieldassist' }),
    });
    const { access_token: accessToken } = (await signIn.json()) as { access_token: string };
    const send = await fetch(`${server.url}/api/auth/email/verify/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(send.status).toBe(200);

    const link = await waitForEmailLink({ serverUrl: server.url, to: email, pathPart: '/auth?verify_token=' });
    const { page, context, errors } = await openPage({ browser, viewport: 'desktop', url: link });
    try {
      const auth = new HostedAuthPage(page);
      await auth.heading.filter({ hasText: 'Verify your email' }).waitFor();
      await auth.button('Verify Email').click();
      await auth.heading.filter({ hasText: 'Email verified' }).waitFor();
      await saveScreenshot(page, 'auth-email-verified-desktop');
      expect(await page.getByRole('link', { name: 'Continue to FieldAssist' }).getAttribute('href')).toBe('/');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('popup mode', () => {
  test('posts the tokens to the opener at opener_origin and closes itself', async () => {
    const { email } = await createAccount({
      serverUrl: server.url,
      email: uniqueEmail('popup'),
      password: GOOD_PASSWORD,
    });
    const { page, context, errors } = await openPage({ browser, viewport: 'desktop', url: `${server.url}/` });
    try {
      await page.evaluate(() => {
        const received: unknown[] = [];
        Object.assign(window, { received });
        window.addEventListener('message', (event) =>
          received.push({ origin: event.origin, data: event.data as unknown }),
        );
      });
      const popupUrl = HostedAuthPage.url(server.url, {
        mode: 'popup',
        opener_origin: server.url,
        state: 'c0ffee',
        redirect_url: server.url,
      });
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        page.evaluate((url) => void window.open(url, 'blink-auth', 'width=500,height=600'), popupUrl),
      ]);
      const popupErrors = collectErrors(popup);
      // Listened for before the click: the popup may close before the click's own wait is over.
      const closed = popup.waitForEvent('close');
      await new HostedAuthPage(popup).signIn(email, GOOD_PASSWORD).catch((error: unknown) => {
        if (!popup.isClosed()) throw error;
      });
      await closed;

      const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received);
      expect(received).toEqual([
        {
          origin: server.url,
          data: {
            type: 'BLINK_AUTH_TOKENS',
            access_token: expect.any(String),
            refresh_token: expect.any(String),
            token_type: 'Bearer',
            expires_in: expect.any(Number),
            refresh_expires_in: expect.any(Number),
            projectId: 'fieldassist',
            state: 'c0ffee',
          },
        },
      ]);
      expect([...errors, ...popupErrors]).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
