/**
 * bench/viewer: how long a technician waits, after tapping a source, for page 300 of a 350-page
 * PDF to be on screen in the in-app viewer, and what it costs the phone.
 *
 *   npm run build && npx tsx bench/viewer/run.ts [--opens 5] [--pages 350]
 *
 * Starts the built server (e2e/support/server.ts) behind a proxy on loopback (slow-link.ts) and
 * Debian's Chromium at 375 x 812, stores a long PDF (e2e/support/viewer-library.ts, about 400 KB
 * for 350 pages) and a saved answer citing its page 300, then taps the source `opens` times on
 * each network: loopback, and a slow phone network (150 ms round trip per request, 1.6 Mbit/s
 * down, scripts gzipped as deploy/Caddyfile does). Each network gets a fresh browser profile:
 * its first open is cold (pdf.js, its worker and the PDF are downloaded), the next ones find
 * them in the HTTP cache but load the document anew. Each open is timed in the page, from the
 * tap to the moment page 300's canvas and text layer are swapped in with the passage marked.
 * Also reported: the bytes of the PDF read per open (pdf.js asks for ranges; after the first
 * open they come from the HTTP cache, the file being immutable) and the longest
 * main-thread task while opening (Long Tasks API), which says whether the page froze.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';

import { AppShell } from '../../e2e/pages/app-shell.js';
import { ChatPage } from '../../e2e/pages/chat-page.js';
import { ManualViewer } from '../../e2e/pages/manual-viewer.js';
import { createAccount, uniqueEmail } from '../../e2e/support/accounts.js';
import { launchBrowser } from '../../e2e/support/browser.js';
import { findFreePort, startServer } from '../../e2e/support/server.js';
import { signInExisting } from '../../e2e/support/signed-in.js';
import { LONG_TITLE, longManualPassage, longManualPdf, serviceApi } from '../../e2e/support/viewer-library.js';
import { startSlowLink, type LinkSpeed } from './slow-link.js';

const { values: args } = parseArgs({
  options: { opens: { type: 'string', default: '5' }, pages: { type: 'string', default: '350' } },
});
const opens = Number(args.opens);
const pages = Number(args.pages);
const cited = Math.max(1, pages - 50);
const SERVICE_KEY = `bench_${randomBytes(24).toString('hex')}`;
const log = (message: string) => console.log(`[bench/viewer] ${message}`);

/** Taps the cited source `opens` times on `page`, at `speed` once the chat is on screen. */
async function measureOpens(page: Page, speed: LinkSpeed, fileUrl: string) {
  await new AppShell(page).openTab('AI Assistant');
  const chat = new ChatPage(page);
  const viewer = new ManualViewer(page);
  const source = chat.sourceLinks(chat.answers.first()).first();
  await source.waitFor();

  let fetched = 0;
  page.on('response', (response) => {
    if (!response.url().startsWith(fileUrl)) return;
    void response.body().then(
      (body) => (fetched += body.length),
      () => undefined, // the first request, cut short once pdf.js knows it can ask for ranges
    );
  });
  await page.evaluate((cited) => {
    const state = window as unknown as { __longest: number; __tapAt: number; __drawnAt: number };
    state.__longest = 0;
    // The viewer sets data-drawn-page once the page's canvas and text layer are swapped in.
    new MutationObserver((records) => {
      if (records.some((record) => (record.target as Element).getAttribute('data-drawn-page') === String(cited)))
        state.__drawnAt = performance.now();
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-drawn-page'] });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (entry.startTime >= state.__tapAt) state.__longest = Math.max(state.__longest, entry.duration);
    }).observe({ type: 'longtask' });
    document.addEventListener('click', () => (state.__tapAt = performance.now()), { capture: true });
  }, cited);

  link.setSpeed(speed);
  const row = { ms: [] as number[], kb: [] as number[], longest: [] as number[] };
  for (let i = 0; i < opens; i++) {
    fetched = 0;
    await page.evaluate(() => ((window as unknown as { __longest: number }).__longest = 0));
    await source.click();
    await viewer.waitForPage(cited, { timeout: 120_000 });
    if ((await viewer.markedText()) !== longManualPassage(cited)) throw new Error('the cited passage is not marked');
    const { ms, longest } = await page.evaluate(() => {
      const state = window as unknown as { __longest: number; __tapAt: number; __drawnAt: number };
      return { ms: state.__drawnAt - state.__tapAt, longest: state.__longest };
    });
    await page.waitForTimeout(300); // the response bodies are counted
    row.ms.push(ms);
    row.kb.push(fetched / 1024);
    row.longest.push(longest);
    log(`open ${i + 1}: ${ms.toFixed(0)} ms, ${(fetched / 1024).toFixed(0)} KB of the PDF read`);
    await page.keyboard.press('Escape');
    await viewer.dialog.waitFor({ state: 'hidden' });
  }
  link.setSpeed(null);
  return row;
}

// The browser reaches the server through the slow link, which is the server's public address.
const linkPort = await findFreePort();
const server = await startServer({ SIGNUP_MODE: 'open', SERVICE_KEY, PUBLIC_URL: `http://127.0.0.1:${linkPort}` });
const link = await startSlowLink(server.url, linkPort);
const browser = await launchBrowser();
try {
  const api = serviceApi(server.url, SERVICE_KEY);
  const email = uniqueEmail('bench-viewer');
  await createAccount({ serverUrl: server.url, email });
  const pdf = await longManualPdf(pages);
  const fileUrl = await api.store('long-manual.pdf', 'application/pdf', pdf);
  const title = pages === 350 ? LONG_TITLE : `Compressor manual (${pages} pages)`;
  await api.saveAnswer({
    email,
    question: 'Bolt torque?',
    answer: 'See the manual.',
    sources: [{ manualId: 'long', title, page: cited, fileUrl, quote: longManualPassage(cited) }],
  });
  log(`${pages}-page PDF of ${(pdf.length / 1024).toFixed(0)} KB, citing page ${cited}`);

  const networks: { name: string; speed: LinkSpeed }[] = [
    { name: 'loopback', speed: null },
    { name: 'slow phone network', speed: { roundTripMs: 150, bytesPerSecond: 1_600_000 / 8 } },
  ];
  const results: { network: string; ms: number[]; kb: number[]; longest: number[] }[] = [];
  for (const network of networks) {
    // A fresh browser profile per network: its first open finds nothing cached (pdf.js, its
    // worker, the PDF); the next ones find them in the HTTP cache, as a second look would.
    const { page, context, errors } = await signInExisting({ browser, viewport: 'phone', serverUrl: link.url, email });
    results.push({ network: network.name, ...(await measureOpens(page, network.speed, fileUrl)) });
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('\n')}`);
    await context.close();
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    '\nnetwork              | first open (cold) | median of the rest | KB of the PDF read (first, rest) | longest main-thread task',
  );
  for (const row of results) {
    const rest = (values: number[]) => (values.length > 1 ? values.slice(1) : values);
    console.log(
      `${row.network.padEnd(20)} | ${row.ms[0]!.toFixed(0).padStart(14)} ms | ${median(rest(row.ms)).toFixed(0).padStart(15)} ms | ${row.kb[0]!.toFixed(0).padStart(6)}, ${median(rest(row.kb)).toFixed(0)} of ${(pdf.length / 1024).toFixed(0)} | ${Math.max(...row.longest).toFixed(0)} ms`,
    );
  }
  console.log(
    `\nall opens (ms): ${results.map((row) => `${row.network}: ${row.ms.map((ms) => ms.toFixed(0)).join(', ')}`).join('; ')}`,
  );
} finally {
  await browser.close();
  await link.close();
  await server.stop();
}
