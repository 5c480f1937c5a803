import { describe, expect, test } from 'vitest';

import { AddUserPage } from './pages/add-user-page.js';
import { AppShell } from './pages/app-shell.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { uniqueEmail } from './support/accounts.js';
import { openPage, saveScreenshot, unexpectedErrors, type ViewportName } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { waitForEmailLink } from './support/outbox.js';
import { openSignedIn } from './support/signed-in.js';

// Invite-only sign-up (the default): the invitation is what lets the new user in.
const { server, browser } = await startServerAndBrowser();

const technicianEmail = uniqueEmail('tech');

describe('Add User', () => {
  test('an admin adds a technician on a desktop; the invitation email arrives with a sign-in link', async () => {
    const viewport: ViewportName = 'desktop';
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport,
      serverUrl: server.url,
      label: 'admin',
      displayName: 'Ada Admin',
    });
    try {
      await app.openTab('Add User');
      const form = new AddUserPage(page);
      await form.email.waitFor();
      expect(await form.adminOnlyNotice.count()).toBe(0); // an admin is not warned

      // SPEC.md section 6: the Add User page offers these three roles with these descriptions (Viewer is the library dialog's).
      expect(await form.roleOptions()).toEqual([
        'Admin – Full access',
        'Manager – Upload manuals',
        'Technician – Read-only',
      ]);

      await form.submit.click();
      expect(await form.error.textContent()).toBe('Email and display name are required');
      await form.fill({ email: 'not-an-email', displayName: 'Terry Tech' });
      await form.submit.click();
      expect(await form.error.textContent()).toBe('Please enter a valid email address');
      await form.clear.click();
      expect(await form.email.inputValue()).toBe('');
      expect(await form.displayName.inputValue()).toBe('');
      expect(await form.error.count()).toBe(0);

      await form.fill({ email: technicianEmail, displayName: 'Terry Tech', phone: '+1 555 0101', role: 'Technician' });
      await saveScreenshot(page, `add-user-filled-${viewport}`);
      await form.submit.click();
      await app.toast.filter({ hasText: 'User Terry Tech added successfully!' }).waitFor();
      // No SMTP_URL on this server: the toast says where the invitation went instead of "emailed".
      expect(await app.toastText()).toContain("is in the server's outbox (/dev/outbox)");
      expect(await app.toastText()).not.toContain('emailed');
      expect(await form.email.inputValue()).toBe('');
      await saveScreenshot(page, `add-user-added-${viewport}`);

      // Adding the same email again: the server's reason in the failure toast.
      await form.fill({ email: technicianEmail, displayName: 'Terry Again' });
      await form.submit.click();
      await app.toast.filter({ hasText: 'Failed to add user' }).waitFor();
      expect(await app.toastText()).toContain('An account with this email already exists.');
      expect(unexpectedErrors(errors, [/status of 409/])).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('the invited technician signs in from the email on a phone and is refused when adding a user', async () => {
    const viewport: ViewportName = 'phone';
    const link = await waitForEmailLink({ serverUrl: server.url, to: technicianEmail, pathPart: '/auth?magic_token=' });
    const { page, context, errors } = await openPage({ browser, viewport, url: link });
    try {
      const auth = new HostedAuthPage(page);
      await auth.heading.filter({ hasText: 'Sign in with your email link' }).waitFor();
      await auth.button('Sign In').click();
      const app = new AppShell(page);
      await app.waitUntilSignedIn();

      // The name the admin gave at invitation, not the email and one initial, before any Profile save.
      expect(await app.avatarButton.getAttribute('aria-label')).toBe('Profile of Terry Tech');
      expect(await app.avatarButton.textContent()).toContain('TT');

      await app.openTab('Add User');
      const form = new AddUserPage(page);
      // Told before typing that only admins add users.
      await form.adminOnlyNotice.waitFor();
      expect(await form.adminOnlyNotice.textContent()).toContain('Only admins can add users');
      await form.fill({ email: uniqueEmail('nope'), displayName: 'Not Allowed', role: 'Admin' });
      await form.submit.click();
      await app.toast.filter({ hasText: 'Failed to add user' }).waitFor();
      expect(await app.toastText()).toContain('Only admins can add users');
      await page.waitForTimeout(500); // let the toast finish sliding in before the picture
      await saveScreenshot(page, `add-user-refused-${viewport}`);

      await app.openTab('Profile');
      await page.getByRole('main', { name: 'Profile' }).locator('[data-role="technician"]').waitFor();
      expect(unexpectedErrors(errors, [/status of 403/])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
