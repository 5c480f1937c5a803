import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { AppShell, TAB_LABELS } from './pages/app-shell.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { LandingPage } from './pages/landing-page.js';
import { GOOD_PASSWORD, uniqueEmail } from './support/accounts.js';
import { launchBrowser, openPage, saveScreenshot, VIEWPORT_NAMES } from './support/browser.js';
import { startServer, type TestServer } from './support/server.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ SIGNUP_MODE: 'open' }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** What has keyboard focus: its accessible name, and whether a focus ring is drawn. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const ring = style.boxShadow !== 'none' || (style.outlineStyle !== 'none' && style.outlineWidth !== '0px');
    return { name: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(), ring };
  });
}

describe.each(VIEWPORT_NAMES)('the signed-in shell on %s', (viewport) => {
  test('sign up, land on the chat tab, switch tabs, open Profile from the avatar, by mouse and keyboard', async () => {
    const { page, context, errors } = await openPage({ browser, viewport, url: `${server.url}/` });
    try {
      await new LandingPage(page).signIn.click();
      await page.waitForURL(/\/auth\?/);
      await new HostedAuthPage(page).signUp({ displayName: viewport === 'desktop' ? 'Dana Admin' : 'Pat Phone', email: uniqueEmail(viewport), password: GOOD_PASSWORD });
      const app = new AppShell(page);
      await app.waitUntilSignedIn();

      // Chat is the default tab; the other tabs' code has not been loaded yet.
      await app.panel('AI Assistant').waitFor();
      const scripts = () => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.js')));
      expect((await scripts()).some((name) => /jobs-page/.test(name))).toBe(false);

      if (viewport === 'desktop') {
        expect(await app.tabBar.getByRole('button').allTextContents()).toEqual(TAB_LABELS);
        expect(await app.menuButton.isVisible()).toBe(false);
      } else {
        expect(await app.tabBar.isVisible()).toBe(false);
        await app.menuButton.click();
        expect(await app.menu.getByRole('menuitem').allTextContents()).toEqual([...TAB_LABELS, 'Sign Out']);
        await saveScreenshot(page, `shell-menu-${viewport}`);
        await page.keyboard.press('Escape');
        await app.menu.waitFor({ state: 'hidden' });
      }

      for (const label of ['My Jobs', 'Manuals', 'Add User', 'Profile', 'AI Assistant'] as const) {
        const panel = await app.openTab(label);
        expect(await panel.isVisible()).toBe(true);
      }
      expect((await scripts()).some((name) => /jobs-page/.test(name))).toBe(true);

      await app.openTab('Manuals');
      expect(await app.panel('Manuals').textContent()).toContain('Manual Library');
      await saveScreenshot(page, `shell-manuals-${viewport}`);

      await app.avatarButton.click();
      await app.panel('Profile').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

      // Keyboard: from the top of the page, Tab reaches the header's controls, each with a visible ring.
      await page.locator('body').focus();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        const now = await focused(page);
        if (!now) continue;
        expect(now.ring, `focus ring on ${now.name}`).toBe(true);
        seen.push(now.name);
      }
      expect(seen).toContain('Sign Out');
      if (viewport === 'desktop') expect(seen).toEqual(expect.arrayContaining(['My Jobs', 'Add User']));
      else expect(seen).toContain('Open menu');
      await saveScreenshot(page, `shell-keyboard-${viewport}`);

      // The hamburger menu by keyboard alone (small screens), Enter opens the chosen tab.
      if (viewport === 'phone') {
        await app.menuButton.focus();
        await page.keyboard.press('Enter');
        // Opened by keyboard, the menu moves focus to its first item (a frame later).
        const menuItemFocused = (name: string) =>
          page.waitForFunction((label) => document.activeElement?.getAttribute('role') === 'menuitem' && document.activeElement.textContent?.trim() === label, name);
        await menuItemFocused('AI Assistant');
        // Radix settles its roving focus on the next frames; a key pressed before is lost.
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        await page.keyboard.press('ArrowDown');
        await menuItemFocused('My Jobs');
        await page.keyboard.press('Enter');
        await app.panel('My Jobs').waitFor();
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
