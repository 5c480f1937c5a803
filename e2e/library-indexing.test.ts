// A ready manual being prepared for search (issue 15): the server's background indexer embeds
// its passages 16 at a time and the library card shows how far it has come, live, until done.
// Real server with embeddings on, real Chromium. The indexer skips rows another transaction has
// locked (FOR UPDATE SKIP LOCKED), so the test holds the last passages back in two steps and
// lets them go one step at a time: the card must then read 16, then 32 of 48, then nothing.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { LibraryPage } from './pages/library-page.js';
import { createAccount, uniqueEmail } from './support/accounts.js';
import { launchBrowser, saveScreenshot, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { contrastViolations } from './support/contrast.js';
import { newServiceKey } from './support/seed-manual.js';
import { seedReadyManual } from './support/seeded-chat.js';
import { startServer, type TestServer } from './support/server.js';
import { signInExisting } from './support/signed-in.js';

const PASSAGES = 48;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function sql(server: TestServer, serviceKey: string, route: 'sql' | 'batch', body: unknown) {
  const response = await fetch(`${server.url}/api/db/fieldassist/${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { rows?: Record<string, unknown>[] };
}

/**
 * Locks the manual's passages from `from` on in a transaction that sleeps (its SQL names `tag`),
 * so the indexer skips them; resolves once they are held. `release` cancels it.
 */
async function holdPassages(server: TestServer, serviceKey: string, manualId: string, from: number, tag: number) {
  const statements = [
    {
      sql: 'SELECT id FROM manual_content WHERE manual_id = ? AND chunk_index >= ? FOR UPDATE SKIP LOCKED',
      args: [manualId, from],
    },
    { sql: `SELECT pg_sleep(600.${tag})` },
  ];
  const ended = sql(server, serviceKey, 'batch', { statements }).catch(() => undefined);
  const running = `SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600.${tag})%' AND pid <> pg_backend_pid()`;
  while (!(await sql(server, serviceKey, 'sql', { query: running })).rows?.length)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    async release() {
      await sql(server, serviceKey, 'sql', {
        query: `SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(600.${tag})%' AND pid <> pg_backend_pid()`,
      });
      await ended;
    },
  };
}

describe.each(VIEWPORT_NAMES)('Preparing a manual for search on %s', (viewport: ViewportName) => {
  let server: TestServer;
  const serviceKey = newServiceKey();

  beforeAll(async () => {
    server = await startServer({ SIGNUP_MODE: 'open', SERVICE_KEY: serviceKey, EMBEDDINGS: 'on' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  test(
    'the card shows "Preparing for search: n of N" with a progress bar, live, and drops it when done',
    { timeout: 300_000 },
    async () => {
      const email = uniqueEmail('admin');
      await createAccount({ serverUrl: server.url, email });
      const { page, app, context, errors } = await signInExisting({ browser, viewport, serverUrl: server.url, email });
      try {
        await app.openTab('Manuals');
        const library = new LibraryPage(page);
        await library.emptyState.waitFor();

        const manual = { id: `manual_idx_${viewport}`, title: 'CH-200 Chiller Service Manual', file: 'ch-200.pdf' };
        const passages = Array.from({ length: PASSAGES }, (_, i) => ({
          page: i + 1,
          text: `Section ${i + 1}. Check the condenser fan relay K${i + 1} and the suction pressure before restarting the chiller.`,
        }));
        // Held before the indexer's first look at the manual: it polls, and is not woken by a seed.
        await seedReadyManual({ url: server.url, serviceKey }, manual, passages);
        const laterHalf = await holdPassages(server, serviceKey, manual.id, 32, 2);
        const middle = await holdPassages(server, serviceKey, manual.id, 16, 1);

        const card = library.manual(manual.title);
        const status = card.getByRole('status').filter({ hasText: 'Preparing for search' });
        const bar = card.getByRole('progressbar', { name: 'Preparing for search' });
        await status.getByText(`Preparing for search: 16 of ${PASSAGES} passages`).waitFor({ timeout: 120_000 });
        expect(await bar.getAttribute('aria-valuenow')).toBe(String((16 / PASSAGES) * 100));
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(await contrastViolations(status)).toEqual([]);
        await saveScreenshot(page, `library-indexing-${viewport}`);

        await middle.release();
        await status.getByText(`Preparing for search: 32 of ${PASSAGES} passages`).waitFor({ timeout: 120_000 });
        expect(await bar.getAttribute('aria-valuenow')).toBe(String((32 / PASSAGES) * 100));

        await laterHalf.release();
        await status.waitFor({ state: 'detached', timeout: 120_000 });
        expect(await bar.count()).toBe(0);
        expect(await card.getByText('Preparing for search').count()).toBe(0);
        const left = await sql(server, serviceKey, 'sql', {
          query: `SELECT count(*)::int AS n FROM manual_content WHERE manual_id = '${manual.id}' AND embedding IS NULL`,
        });
        expect(left.rows?.[0]?.n).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
