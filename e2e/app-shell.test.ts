import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { AppShell, TAB_LABELS } from './pages/app-shell.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { LandingPage } from './pages/landing-page.js';
import { GOOD_PASSWORD, uniqueEmail } from './support/accounts.js';
import { openPage, saveScreenshot, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

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

/** What has focus, as "<tag> <name>", prefixed with its tab panel ("Manuals > h1 Manual Library"). */
function focusedElement(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const panel = el.closest('main')?.getAttribute('aria-label');
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
    return `${panel ? `${panel} > ` : ''}${el.tagName.toLowerCase()} ${name}`;
  });
}

/** Waits until the menu item `label` has focus: opened by keyboard, the menu focuses its first item a frame later. */
async function menuItemFocused(page: Page, label: string) {
  await page.waitForFunction(
    (name) =>
      document.activeElement?.getAttribute('role') === 'menuitem' &&
      document.activeElement.textContent?.trim() === name,
    label,
  );
  // Radix settles its roving focus on the next frames; a key pressed before is lost.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

describe.each(VIEWPORT_NAMES)('the signed-in shell on %s', (viewport) => {
  test('sign up, land on the chat tab, switch tabs, open Profile from the avatar, by mouse and keyboard', async () => {
    const { page, context, errors } = await openPage({ browser, viewport, url: `${server.url}/` });
    try {
      await new LandingPage(page).signIn.click();
      await page.waitForURL(/\/auth\?/);
      await new HostedAuthPage(page).signUp({
        displayName: viewport === 'desktop' ? 'Dana Admin' : 'Pat Phone',
        email: uniqueEmail(viewport),
        password: GOOD_PASSWORD,
      });
      const app = new AppShell(page);
      await app.waitUntilSignedIn();

      // Chat is the default tab; the other tabs' code has not been loaded yet.
      await app.panel('AI Assistant').waitFor();
      const scripts = () =>
        page.evaluate(() =>
          performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((n) => n.endsWith('.js')),
        );
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

        // By keyboard (the WAI-ARIA menu button): Space opens, Escape closes and gives focus back.
        await app.menuButton.focus();
        await page.keyboard.press('Space');
        await menuItemFocused(page, 'AI Assistant');
        await page.keyboard.press('Escape');
        await app.menu.waitFor({ state: 'hidden' });
        await expect.poll(() => focusedElement(page)).toBe('button Open menu');

        // A pointer that moves as the key goes down (a nudged mouse) must not leave a keyboard
        // user on the menu's frame instead of its first item.
        await page.evaluate(() =>
          document.addEventListener('keydown', () => document.dispatchEvent(new PointerEvent('pointermove')), {
            capture: true,
            once: true,
          }),
        );
        await page.keyboard.press('Space');
        await menuItemFocused(page, 'AI Assistant');
        await page.keyboard.press('Escape');
        await app.menu.waitFor({ state: 'hidden' });
        await expect.poll(() => focusedElement(page)).toBe('button Open menu');

        // Enter opens; arrows and Enter choose a tab not loaded yet. Its heading takes focus once
        // its code and data are in, so a screen reader announces the new screen.
        await page.keyboard.press('Enter');
        await menuItemFocused(page, 'AI Assistant');
        await page.keyboard.press('ArrowDown');
        await menuItemFocused(page, 'My Jobs');
        await page.keyboard.press('ArrowDown');
        await menuItemFocused(page, 'Manuals');
        await saveScreenshot(page, `shell-menu-keyboard-${viewport}`);
        await page.keyboard.press('Enter');
        await app.panel('Manuals').waitFor();
        expect(await app.panel('AI Assistant').isVisible()).toBe(false);
        await app.menu.waitFor({ state: 'hidden' });
        await expect.poll(() => focusedElement(page), { timeout: 15_000 }).toBe('Manuals > h1 Manual Library');
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
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );

      // Keyboard: from the top of the page, Tab reaches the header's controls, each with a visible ring.
      await page.locator('body').focus();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const seen: string[] = [];
      for (let i = 0; i < 16; i++) {
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

      // The hamburger menu by keyboard alone (small screens), Enter opens the chosen tab, an
      // already loaded one this time, and its heading takes focus.
      if (viewport === 'phone') {
        await app.menuButton.focus();
        await page.keyboard.press('Enter');
        await menuItemFocused(page, 'AI Assistant');
        await page.keyboard.press('ArrowDown');
        await menuItemFocused(page, 'My Jobs');
        await page.keyboard.press('Enter');
        await app.panel('My Jobs').waitFor();
        expect(await app.panel('Profile').isVisible()).toBe(false);
        await expect.poll(() => focusedElement(page)).toBe('My Jobs > h1 My Jobs');
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
