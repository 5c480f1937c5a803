import type { Browser, Page, Request, Route } from 'playwright-core';
import { ApiError } from '../errors.js';
import { outboundHeaders, presentHeaders } from './proxy-fetch-headers.js';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.js';

export interface CaptureOptions {
  url: string;
  width: number;
  height: number;
  fullPage: boolean;
  chromiumPath: string;
  timeoutMs: number;
  fetchOptions?: SafeFetchOptions;
  /** Told of the running browser, so a closing server can end it. */
  onBrowser?: (browser: Browser | undefined) => void;
}

// One page may not make the server download without end.
const MAX_PAGE_REQUESTS = 300;
const MAX_PAGE_BYTES = 50 * 1024 * 1024;
// Chromium cannot paint a taller image in one piece; a longer page is cut here.
const MAX_FULL_PAGE_HEIGHT = 16_384;

// Every HTTP request of the page is answered by safeFetch in relay() below. Whatever Chromium
// would still send on its own (WebSocket, WebRTC, preconnects) goes to a proxy that cannot be
// reached, with no exception for loopback, so it fails instead of reaching a private network.
const launchArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://255.255.255.255:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export const chromiumMissing = () => new ApiError('SCREENSHOTS_UNAVAILABLE', 'Screenshots need Chromium on the server');

async function loadChromium() {
  try {
    return (await import('playwright-core')).chromium;
  } catch {
    throw chromiumMissing();
  }
}

/** Opens a page in a fresh headless Chromium and returns its PNG; the browser is closed after. */
export async function capturePage(options: CaptureOptions): Promise<Buffer> {
  const chromium = await loadChromium();
  const deadline = Date.now() + options.timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: options.chromiumPath,
      args: launchArgs,
      chromiumSandbox: false,
      timeout: options.timeoutMs,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    // A busy machine may not start Chromium within the time limit: that is the limit, not a missing browser.
    if ((error as Error).name === 'TimeoutError') throw timedOutError(options.timeoutMs);
    throw new ApiError(
      'SCREENSHOTS_UNAVAILABLE',
      `Chromium could not start (${(error as Error).message.split('\n')[0]})`,
    );
  }
  options.onBrowser?.(browser);
  let timedOut = false;
  const timeUp = () => timedOut || Date.now() >= deadline;
  const timer = setTimeout(() => {
    timedOut = true;
    void browser.close();
  }, options.timeoutMs);
  let page: Page | undefined;
  let navigationError: unknown;
  let requests = 0;
  let bytes = 0;

  const isPageNavigation = (request: Request) => {
    try {
      return request.isNavigationRequest() && request.frame() === page?.mainFrame();
    } catch {
      return false; // a request without a frame (a worker's) is not the page's own navigation
    }
  };
  // Answers one request of the page through safeFetch: the same address policy, every hop vetted.
  const relay = async (route: Route, request: Request) => {
    try {
      if (++requests > MAX_PAGE_REQUESTS) throw new ApiError('FETCH_FAILED', 'The page made too many requests');
      const headers = Object.fromEntries(
        Object.entries(await request.allHeaders()).filter(([name]) => !name.startsWith(':')),
      );
      const answer = await safeFetch(request.url(), {
        ...options.fetchOptions,
        method: request.method(),
        headers: outboundHeaders(headers),
        body: request.postDataBuffer() ?? undefined,
        passStatus: true,
        timeoutMs: remaining(),
        maxBytes: Math.max(1, MAX_PAGE_BYTES - bytes),
      });
      bytes += answer.bytes.length;
      const { 'content-length': _length, ...responseHeaders } = presentHeaders(answer.headers);
      await route.fulfill({ status: answer.status, headers: responseHeaders, body: answer.bytes });
    } catch (error) {
      if (isPageNavigation(request)) navigationError ??= error;
      await route.abort('blockedbyclient').catch(() => undefined);
    }
  };

  try {
    const context = await browser.newContext({
      viewport: { width: options.width, height: options.height },
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    await context.route('**/*', relay);
    await context.routeWebSocket(/.*/, (socket) => socket.close({ code: 1008, reason: 'Not allowed' }));
    page = await context.newPage();
    try {
      await page.goto(options.url, { waitUntil: 'load', timeout: remaining() });
    } catch (error) {
      if (navigationError) throw navigationError;
      if (timeUp() || (error as Error).name === 'TimeoutError') throw error;
      throw new ApiError('FETCH_FAILED', `Could not load the page (${(error as Error).message.split('\n')[0]})`);
    }
    // Late requests (lazy images, fonts) get a short moment, not the whole budget.
    await page.waitForLoadState('networkidle', { timeout: Math.min(2000, remaining()) }).catch(() => undefined);
    // A string runs in the page: the server is compiled without the DOM's types.
    const height = options.fullPage ? await page.evaluate<number>('document.documentElement.scrollHeight') : 0;
    const clip =
      height > MAX_FULL_PAGE_HEIGHT ? { x: 0, y: 0, width: options.width, height: MAX_FULL_PAGE_HEIGHT } : undefined;
    return await page.screenshot({
      type: 'png',
      fullPage: options.fullPage,
      clip,
      timeout: remaining(),
      animations: 'disabled',
    });
  } catch (error) {
    if (timeUp() || (error as Error).name === 'TimeoutError') throw timedOutError(options.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    options.onBrowser?.(undefined);
    await browser.close().catch(() => undefined);
  }
}

const timedOutError = (timeoutMs: number) =>
  new ApiError('FETCH_TIMEOUT', `The page could not be captured within ${Math.round(timeoutMs / 1000)} s`);
