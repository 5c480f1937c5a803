import type { Page } from 'playwright-core';

/** Console errors of requests that fail while offline: the browser's own, expected in offline tests. */
export const OFFLINE_NOISE = [
  /ERR_INTERNET_DISCONNECTED/,
  /Failed to fetch/,
  /ERR_NETWORK_CHANGED/,
  /WebSocket/,
  /Network request failed/,
];

/** Resolves once the app's service worker is active and controls the page. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}
