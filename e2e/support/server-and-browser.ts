import type { Browser } from 'playwright-core';
import { afterAll } from 'vitest';

import { launchBrowser } from './browser.js';
import { startServer, type TestServer } from './server.js';

/**
 * The start of most browser test files, awaited at their top level: the built server (with
 * `env`) and Chromium, started side by side, both stopped after the file's tests. When one
 * fails to start, the other is stopped before the error is thrown.
 */
export async function startServerAndBrowser(
  env: Record<string, string> = {},
  options: { port?: number } = {},
): Promise<{ server: TestServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([startServer(env, options), launchBrowser()]);
  if (server.status === 'rejected' || browser.status === 'rejected') {
    if (browser.status === 'fulfilled') await browser.value.close();
    if (server.status === 'fulfilled') await server.value.stop();
    throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
  }
  afterAll(async () => {
    await browser.value.close();
    await server.value.stop();
  });
  return { server: server.value, browser: browser.value };
}
