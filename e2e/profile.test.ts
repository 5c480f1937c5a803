import { beforeAll, describe, expect, test } from 'vitest';

import { ProfilePage } from './pages/profile-page.js';
import { saveScreenshot, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { makePng, writeTempFile } from './support/png.js';
import { openSignedIn } from './support/signed-in.js';

let pngPath: string;
let textPath: string;

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

beforeAll(async () => {
  pngPath = await writeTempFile('avatar.png', makePng());
  textPath = await writeTempFile('notes.txt', 'not a picture');
});

describe.each(VIEWPORT_NAMES)('Profile on %s', (viewport) => {
  test('upload a new avatar, save name and phone, and see them after a reload', async () => {
    const { page, context, errors, app, email } = await openSignedIn({
      browser,
      viewport,
      serverUrl: server.url,
      label: `profile-${viewport}`,
      displayName: 'Robin Field',
    });
    try {
      await app.avatarButton.click();
      const profile = new ProfilePage(page);
      await profile.displayName.waitFor();
      expect(await profile.email.inputValue()).toBe(email);
      expect(await profile.email.getAttribute('readonly')).not.toBeNull();
      await profile.roleBadge().waitFor();
      // The first account of this server (desktop runs first) is its admin; the next has no role.
      expect(await profile.roleBadge().getAttribute('data-role')).toBe(viewport === 'desktop' ? 'admin' : 'none');

      await profile.uploadAvatar(textPath);
      expect(await app.toastText()).toContain('Please upload an image file');

      await profile.uploadAvatar(pngPath);
      await app.toast.filter({ hasText: 'Profile picture uploaded successfully!' }).waitFor();
      await profile.avatarImage.waitFor();
      const src = await profile.avatarImage.getAttribute('src');
      expect(src).toMatch(new RegExp(`^${server.url}/files/`));
      expect((await fetch(src!)).headers.get('content-type')).toBe('image/png');
      await app.header.locator(`img[src="${src}"]`).waitFor();

      await profile.displayName.fill('');
      await profile.save.click();
      expect(await profile.error.textContent()).toBe('Display name and email are required');

      await profile.displayName.fill('Robin Fieldwork');
      await profile.phone.fill('+44 20 7946 0000');
      await profile.save.click();
      await app.toast.filter({ hasText: 'Profile updated successfully!' }).waitFor();
      expect(await app.avatarButton.getAttribute('aria-label')).toBe('Profile of Robin Fieldwork');
      await saveScreenshot(page, `profile-saved-${viewport}`);

      // Reset returns to what is saved.
      await profile.phone.fill('000');
      await profile.reset.click();
      expect(await profile.phone.inputValue()).toBe('+44 20 7946 0000');

      await page.reload();
      await app.waitUntilSignedIn();
      await app.openTab('Profile');
      await profile.avatarImage.waitFor();
      expect(await profile.displayName.inputValue()).toBe('Robin Fieldwork');
      expect(await profile.phone.inputValue()).toBe('+44 20 7946 0000');
      expect(await profile.avatarImage.getAttribute('src')).toBe(src);
      expect(await profile.accountInfo.textContent()).toContain('Robin Fieldwork');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      await saveScreenshot(page, `profile-reloaded-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
