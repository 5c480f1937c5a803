// Installable and offline (issue 18): the built app, served by the real server, registers its
// service worker; with the network switched off (Playwright's offline mode) it still opens,
// signed in, says it is offline, and a new version waits for the user instead of breaking
// the open session.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { describe, expect, test } from 'vitest';

import { ChatPage } from './pages/chat-page.js';
import { saveScreenshot, unexpectedErrors } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { OFFLINE_NOISE, waitForServiceWorker } from './support/offline.js';
import { openSignedIn } from './support/signed-in.js';

const SW_FILE = fileURLToPath(new URL('../apps/web/dist/sw.js', import.meta.url));

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

describe('installable and offline', () => {
  test('the server serves the manifest and a service worker that is never cached long', async () => {
    const sw = await fetch(`${server.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const manifestResponse = await fetch(`${server.url}/manifest.webmanifest`);
    expect(manifestResponse.headers.get('content-type')).toMatch(/manifest\+json|application\/json/);
    const manifest = (await manifestResponse.json()) as {
      display: string;
      start_url: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'FieldAssist', display: 'standalone', start_url: '/' });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    for (const icon of manifest.icons) {
      const png = await fetch(`${server.url}${icon.src}`);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await png.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
  });

  test('with the network off the app opens from the service worker, signed in, with an offline banner; every tab opens', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'offline',
      displayName: 'Olli Offline',
    });
    try {
      await waitForServiceWorker(page);
      await context.setOffline(true);
      await page.reload();
      await app.waitUntilSignedIn();
      const banner = page.getByTestId('offline-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('You are offline.');
      expect(await app.avatarButton.getAttribute('aria-label')).toBe('Profile of Olli Offline');
      await new ChatPage(page).waitUntilReady();
      await saveScreenshot(page, 'offline-chat-phone');
      for (const tab of ['My Jobs', 'Manuals', 'Add User', 'Profile'] as const) await app.openTab(tab);

      await context.setOffline(false);
      await banner.waitFor({ state: 'hidden' });
      expect(unexpectedErrors(errors, OFFLINE_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a new version waits: the open session keeps its typed text until the user taps Update now', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'update',
    });
    const original = await readFile(SW_FILE, 'utf8');
    try {
      await waitForServiceWorker(page);
      const chat = new ChatPage(page);
      await chat.input.fill('Half-typed question about the boiler');
      // A new deploy: the server's sw.js changes, and the browser checks for it.
      await writeFile(SW_FILE, `${original}\n// a new version\n`);
      await page.evaluate(async () => void (await (await navigator.serviceWorker.getRegistration())?.update()));
      await page.getByTestId('update-banner').waitFor();
      expect(await chat.input.inputValue()).toBe('Half-typed question about the boiler');
      await app.openTab('My Jobs'); // the old version's code still loads
      await saveScreenshot(page, 'update-ready-phone');

      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Update now' }).click()]);
      await app.waitUntilSignedIn();
      await waitForServiceWorker(page);
      expect(
        await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null),
      ).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await writeFile(SW_FILE, original);
      await context.close();
    }
  });
});
