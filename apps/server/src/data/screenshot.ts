import { randomUUID } from 'node:crypto';
import { access, constants } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { ApiError } from '../errors.js';
import { capturePage, chromiumMissing } from './screenshot-browser.js';
import { parseTarget, type SafeFetchOptions, vetUrl } from './safe-fetch.js';

export interface ScreenshotRequest {
  url: string;
  fullPage?: boolean;
  width?: number;
  height?: number;
}

export interface ScreenshotDeps {
  chromiumPath: string;
  timeoutMs: number;
  /** Browsers at once; the rest wait, up to `maxWaiting`. */
  concurrency: number;
  maxWaiting?: number;
  fetchOptions?: SafeFetchOptions;
  /** Stores the PNG and returns its public URL (the file store's saveServerFile). */
  saveFile: (input: { path: string; bytes: Uint8Array; contentType: string }) => Promise<string>;
}

/** The page's URL, checked before a browser is started: a plain refusal beats a failed page load. */
async function checkTarget(raw: string, fetchOptions?: SafeFetchOptions) {
  await vetUrl(parseTarget(raw), fetchOptions);
}

/**
 * Screenshots on a small queue: `concurrency` Chromium processes at most, each with the time
 * limit, every request of the page held to the address policy. `close` ends running browsers.
 */
export function createScreenshotter(deps: ScreenshotDeps) {
  const { concurrency, maxWaiting = 4 } = deps;
  let running = 0;
  const waiting: Array<() => void> = [];
  const browsers = new Set<Browser>();

  async function slot() {
    if (running < concurrency) {
      running++;
      return;
    }
    if (waiting.length >= maxWaiting)
      throw new ApiError('SERVICE_UNAVAILABLE', 'Too many screenshots are being taken; try again shortly');
    // release() hands its slot straight to the next in line, so `running` stays counted.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  /**
   * Takes a PNG of a public http(s) page and stores it; returns its public URL. Any signed-in caller.
   * Throws URL_NOT_ALLOWED, SCREENSHOTS_UNAVAILABLE (no Chromium), SERVICE_UNAVAILABLE (queue
   * full), FETCH_FAILED, FETCH_TIMEOUT.
   */
  async function takeScreenshot(request: ScreenshotRequest): Promise<{ url: string }> {
    await access(deps.chromiumPath, constants.X_OK).catch(() => {
      throw chromiumMissing();
    });
    await checkTarget(request.url, deps.fetchOptions);
    await slot();
    let png: Buffer;
    let current: Browser | undefined;
    try {
      png = await capturePage({
        url: request.url,
        width: request.width ?? 1280,
        height: request.height ?? 800,
        fullPage: request.fullPage ?? false,
        chromiumPath: deps.chromiumPath,
        timeoutMs: deps.timeoutMs,
        fetchOptions: deps.fetchOptions,
        onBrowser: (browser) => {
          if (current) browsers.delete(current);
          current = browser;
          if (browser) browsers.add(browser);
        },
      });
    } finally {
      release();
    }
    return {
      url: await deps.saveFile({ path: `screenshots/${randomUUID()}.png`, bytes: png, contentType: 'image/png' }),
    };
  }

  async function close() {
    await Promise.all([...browsers].map((browser) => browser.close().catch(() => undefined)));
  }

  return { takeScreenshot, close };
}

export type Screenshotter = ReturnType<typeof createScreenshotter>;
