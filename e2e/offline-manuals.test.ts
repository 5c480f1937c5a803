// Manuals offline (issue 18): "Save for offline" keeps a manual's file on the phone, the library
// says how much space that takes, and with the network switched off the library still lists
// the manual and the service worker serves the saved file at its own URL, whole or in the
// ranges the pdf.js viewer asks for, so an answer's citation opens the saved manual in the
// viewer with no network. Remove gives the space back.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';

import { ChatPage } from './pages/chat-page.js';
import { LibraryPage } from './pages/library-page.js';
import { ManualViewer } from './pages/manual-viewer.js';
import { saveScreenshot, unexpectedErrors } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { RTU_TITLE, rtuManualPdf } from './support/library-files.js';
import { OFFLINE_NOISE, waitForServiceWorker } from './support/offline.js';
import { openSignedIn } from './support/signed-in.js';

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

/** What the page gets for the URL (through the service worker): status and the first bytes, or the failure. */
function fetchInPage(page: Page, url: string, range?: string) {
  return page.evaluate(
    async ({ url, range }) => {
      try {
        const response = await fetch(url, range ? { headers: { range } } : {});
        const bytes = new Uint8Array(await response.arrayBuffer());
        return { status: response.status, length: bytes.length, head: String.fromCharCode(...bytes.slice(0, 5)) };
      } catch (error) {
        return { failed: String(error) };
      }
    },
    { url, range },
  );
}

describe('manuals saved for offline', () => {
  test('a saved manual is listed and served offline, in ranges too, and a citation opens it in the viewer offline; removed, it is gone', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'saver',
    });
    try {
      await app.openTab('Manuals');
      const library = new LibraryPage(page);
      await library.createVersion('Series 5', '2024');
      await library.uploadSingle({ file: await rtuManualPdf(), version: 'Series 5 (2024)' });
      await library.dialog.getByRole('button', { name: 'Save Manual' }).click();
      const card = library.manual(RTU_TITLE);
      await card.waitFor();
      const fileUrl = (await card.getByRole('link', { name: /^Download/ }).getAttribute('href'))!;
      await waitForServiceWorker(page);

      // From the keyboard: a toast about the upload may lie over the button for a few seconds.
      await card.getByRole('button', { name: /^Save for offline/ }).press('Enter');
      await card.getByTestId('saved-offline').waitFor();
      expect(await card.getByTestId('saved-offline').textContent()).toMatch(/Saved on this phone \(\d+\.\d\d KB\)/);
      expect(await library.panel.getByTestId('offline-storage').textContent()).toMatch(
        /Saved for offline: 1 manual\(s\), \d+\.\d\d KB on this phone/,
      );
      await saveScreenshot(page, 'offline-manual-saved-phone');

      // Online: an answer that cites page 3 of the saved manual.
      await card.and(page.locator('[data-status="ready"]')).waitFor({ timeout: 30_000 });
      await app.openTab('AI Assistant');
      const chat = new ChatPage(page);
      await chat.sendUserMessage('What does fault E7 mean?');
      await chat.waitForAnswer();

      await context.setOffline(true);
      await page.reload();
      await app.waitUntilSignedIn();
      // Offline: the answer is read from the device, and its citation opens the saved manual in the viewer.
      await app.openTab('AI Assistant');
      await chat
        .sourceLinks()
        .filter({ hasText: `${RTU_TITLE}, page 3` })
        .click();
      const viewer = new ManualViewer(page);
      await viewer.waitForPage(3, { timeout: 30_000 });
      expect(await viewer.pageLabel.textContent()).toMatch(/Page 3 of 3/);
      await saveScreenshot(page, 'offline-manual-viewer-phone');
      await viewer.close.click();
      await app.openTab('Manuals');
      await card.getByTestId('saved-offline').waitFor();
      const whole = await fetchInPage(page, fileUrl);
      expect(whole).toMatchObject({ status: 200, head: '%PDF-' });
      expect(await fetchInPage(page, fileUrl, 'bytes=0-7')).toEqual({ status: 206, length: 8, head: '%PDF-' });
      expect(await fetchInPage(page, `${fileUrl}#page=3`)).toMatchObject({ status: 200, head: '%PDF-' });
      expect(await fetchInPage(page, `${server.url}/files/not-saved.pdf`)).toHaveProperty('failed');
      await saveScreenshot(page, 'offline-manual-offline-phone');

      await card.getByRole('button', { name: /^Remove the offline copy/ }).press('Enter');
      await card.getByRole('button', { name: /^Save for offline/ }).waitFor();
      expect(await fetchInPage(page, fileUrl)).toHaveProperty('failed');
      // The two fetches of files not saved failed on purpose.
      expect(unexpectedErrors(errors, [...OFFLINE_NOISE, /net::ERR_FAILED \(.+\/files\//])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
