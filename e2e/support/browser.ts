import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (see scripts/ensure-test-packages.mjs); Playwright's own browsers are never downloaded. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));

const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;
export const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as ViewportName[];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Quiet and self-contained: no sandbox (containers run as root), no GPU, and none of
    // the background calls to Google services that would hang on a machine without internet.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export type OpenedPage = {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors so far; tests assert it stays empty. */
  errors: string[];
};

/**
 * Opens `url` in a fresh context at the named viewport. Error collection starts before
 * navigation, so errors during the first load are caught too. Close `context` when done.
 */
export async function openPage({
  browser,
  viewport,
  url,
}: {
  browser: Browser;
  viewport: ViewportName;
  url: string;
}): Promise<OpenedPage> {
  const context = await browser.newContext(VIEWPORTS[viewport]);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto(url, { waitUntil: 'load' });
  return { page, context, errors };
}

/** Records every console error and uncaught exception on the page, as text. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.stack ?? error.message}`));
  return errors;
}

/** Saves a full-page PNG to e2e/screenshots/<name>.png (gitignored) for a human to look at. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = `${SCREENSHOT_DIR}${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * `errors` without the ones a test provoked on purpose, such as the browser's
 * "Failed to load resource: ... 401" line after a refused password.
 */
export function unexpectedErrors(errors: string[], expected: RegExp[]): string[] {
  return errors.filter((error) => !expected.some((pattern) => pattern.test(error)));
}
