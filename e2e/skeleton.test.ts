import { describe, expect, test } from 'vitest';

import { LandingPage } from './pages/landing-page.js';
import { openPage, saveScreenshot, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';

const ONE_YEAR_SECONDS = 31_536_000;

const { server, browser } = await startServerAndBrowser();

describe.each(VIEWPORT_NAMES)('landing page on %s', (viewport) => {
  test('shows the product, its tagline, both features and one Sign In button', async () => {
    const { page, context, errors } = await openPage({ browser, viewport, url: server.url });
    try {
      const landing = new LandingPage(page);
      await landing.heading.waitFor({ state: 'visible' });
      expect(await landing.tagline.isVisible()).toBe(true);
      expect(await landing.signIn.count()).toBe(1);
      expect(await landing.signIn.isVisible()).toBe(true);
      // A button that starts the hosted sign-in (SPEC.md section 1); its redirect is tested in sign-in.test.ts.
      expect(await landing.signIn.evaluate((el) => el.tagName)).toBe('BUTTON');
      expect(await landing.featureTitles()).toEqual(['AI Chat Support', 'Visual Diagnostics']);

      const width = page.viewportSize()?.width ?? 0;
      expect(await landing.scrollWidth()).toBeLessThanOrEqual(width);
      await saveScreenshot(page, `landing-${viewport}`);

      // Keyboard users must see where they are: the first Tab lands on Sign In with a ring.
      await page.keyboard.press('Tab');
      expect(await landing.signIn.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await landing.signIn.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
      await saveScreenshot(page, `landing-${viewport}-focus`);

      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('static assets', () => {
  test('hashed assets are cached for a year; index.html is revalidated', async () => {
    const index = await fetch(`${server.url}/`);
    expect(index.status).toBe(200);
    expect(cacheControl(index)).toMatchObject({ immutable: false });
    expect(mustRevalidate(cacheControl(index))).toBe(true);

    const assetPath = /\/assets\/[\w.-]+\.js/.exec(await index.text())?.[0];
    expect(assetPath).toBeDefined();
    const asset = await fetch(`${server.url}${assetPath}`);
    expect(asset.status).toBe(200);
    const assetCache = cacheControl(asset);
    expect(assetCache.immutable).toBe(true);
    expect(assetCache.maxAge).toBeGreaterThanOrEqual(ONE_YEAR_SECONDS);
  });

  test('a page load of an unknown path gets the app (SPA fallback), not a long-cached copy', async () => {
    // The Accept header of a browser navigation: the fallback is for pages, not for API calls.
    const response = await fetch(`${server.url}/some/client/view`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(mustRevalidate(cacheControl(response))).toBe(true);
  });
});

type CacheControl = { raw: string; immutable: boolean; noCache: boolean; maxAge?: number };

function cacheControl(response: Response): CacheControl {
  const raw = response.headers.get('cache-control') ?? '';
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(raw)?.[1];
  return {
    raw,
    immutable: /\bimmutable\b/i.test(raw),
    noCache: /\bno-(cache|store)\b/i.test(raw),
    maxAge: maxAge === undefined ? undefined : Number(maxAge),
  };
}

// Without an explicit rule a browser may cache heuristically from Last-Modified, and a
// stale index.html would point at hashed assets that no longer exist after a deploy.
function mustRevalidate(cache: CacheControl): boolean {
  return !cache.immutable && (cache.noCache || cache.maxAge === 0);
}
