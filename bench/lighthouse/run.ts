// Lighthouse on the phone profile (its default: a mid-range phone, throttled), driving Debian's
// Chromium, against the built app served by the real server on loopback: the landing page and
// the signed-in app (chat tab). Targets (issue 18): accessibility and best practices >= 95 on
// both. Lighthouse 12 no longer audits installability, so the run also asks Chromium itself
// (DevTools protocol) for the manifest, its installability errors and the service worker.
// Usage: npm run build && npx tsx bench/lighthouse/run.ts
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import lighthouse from 'lighthouse';
import { chromium as playwright } from 'playwright-core';

import { createAccount, GOOD_PASSWORD, uniqueEmail } from '../../e2e/support/accounts.js';
import { CHROMIUM_PATH } from '../../e2e/support/browser.js';
import { findFreePort, startServer } from '../../e2e/support/server.js';

const TARGET = 95;
const CATEGORIES = ['accessibility', 'best-practices', 'performance'];

async function signedInUrl(serverUrl: string): Promise<string> {
  const { email } = await createAccount({ serverUrl, email: uniqueEmail('lighthouse'), displayName: 'Lee Lighthouse' });
  const response = await fetch(`${serverUrl}/api/auth/signin/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: GOOD_PASSWORD, projectId: 'fieldassist' }),
  });
  const tokens = (await response.json()) as { access_token: string; refresh_token: string };
  // The client takes a session from the URL (PLATFORM_API.md 2.3), as after the hosted sign-in page.
  return `${serverUrl}/?${new URLSearchParams({ access_token: tokens.access_token, refresh_token: tokens.refresh_token })}`;
}

/** Debian's Chromium with a DevTools port for Lighthouse; resolves once the port answers. */
async function startChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await findFreePort();
  const profile = await mkdtemp(join(tmpdir(), 'fa-lighthouse-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  const child = spawn(
    CHROMIUM_PATH,
    [...args, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * What Chromium says about installing the app: the manifest it found, why it could not install,
 * the service worker. In the Lighthouse browser's own profile: a private window never installs.
 */
async function installability(url: string, port: number) {
  const browser = await playwright.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    return {
      manifestUrl: manifest.url,
      manifestErrors: manifest.errors.length,
      installabilityErrors: installabilityErrors.map((e) => e.errorId),
      serviceWorkerScope: scope,
    };
  } finally {
    await browser.close();
  }
}

const server = await startServer({ SIGNUP_MODE: 'open' });
const chromium = await startChromium();
let failed = false;
try {
  const pages = { landing: `${server.url}/`, 'signed-in chat': await signedInUrl(server.url) };
  for (const [name, url] of Object.entries(pages)) {
    const result = await lighthouse(url, {
      port: chromium.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    });
    const lhr = result!.lhr;
    const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
    console.log(
      `${name.padEnd(16)} ${CATEGORIES.map((id) => `${id} ${scores[id]}`).join('  ')}  (form factor: ${lhr.configSettings.formFactor})`,
    );
    for (const id of ['accessibility', 'best-practices']) {
      if (scores[id]! < TARGET) {
        failed = true;
        const failing = Object.values(lhr.audits).filter(
          (audit) =>
            audit.score !== null &&
            audit.score < 1 &&
            lhr.categories[id]!.auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0),
        );
        console.log(`  ${id} under ${TARGET}: ${failing.map((audit) => audit.id).join(', ')}`);
      }
    }
  }
  const install = await installability(`${server.url}/`, chromium.port);
  console.log(
    `manifest ${install.manifestUrl} (${install.manifestErrors} errors), installability errors: ${install.installabilityErrors.join(', ') || 'none'}, service worker scope ${install.serviceWorkerScope}`,
  );
  if (
    !install.manifestUrl ||
    install.manifestErrors > 0 ||
    install.installabilityErrors.length > 0 ||
    !install.serviceWorkerScope
  )
    failed = true;
} finally {
  await chromium.stop();
  await server.stop();
}
if (failed) process.exitCode = 1;
