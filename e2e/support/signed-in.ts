import type { Browser } from 'playwright-core';

import { AppShell } from '../pages/app-shell.js';
import { HostedAuthPage } from '../pages/hosted-auth-page.js';
import { createAccount, GOOD_PASSWORD, uniqueEmail } from './accounts.js';
import { openPage, type OpenedPage, type ViewportName } from './browser.js';

/**
 * A new account (made through the API), signed in through the hosted page as a person
 * would, landed in the app. The first account of a fresh server is its admin.
 */
export async function openSignedIn({
  browser,
  viewport,
  serverUrl,
  label,
  displayName,
}: {
  browser: Browser;
  viewport: ViewportName;
  serverUrl: string;
  label: string;
  displayName?: string;
}): Promise<OpenedPage & { app: AppShell; email: string }> {
  const { email, password } = await createAccount({ serverUrl, email: uniqueEmail(label), displayName });
  return signInExisting({ browser, viewport, serverUrl, email, password });
}

/** Signs an existing account in through the hosted page. */
export async function signInExisting({
  browser,
  viewport,
  serverUrl,
  email,
  password = GOOD_PASSWORD,
}: {
  browser: Browser;
  viewport: ViewportName;
  serverUrl: string;
  email: string;
  password?: string;
}) {
  const opened = await openPage({ browser, viewport, url: HostedAuthPage.url(serverUrl) });
  await new HostedAuthPage(opened.page).signIn(email, password);
  const app = new AppShell(opened.page);
  await app.waitUntilSignedIn();
  return { ...opened, app, email };
}
