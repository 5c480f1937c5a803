// My Jobs offline (issue 18): with the network switched off, jobs are readable, and a job
// created and a status changed are kept in the device's outbox (IndexedDB), shown as waiting,
// and reach the server in order, once each, when the network returns: after a reload while
// offline, and after the app was closed. A change that lost to a newer one is shown.
import { describe, expect, test } from 'vitest';

import { AppShell } from './pages/app-shell.js';
import { JobsPage } from './pages/jobs-page.js';
import { saveScreenshot, unexpectedErrors } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { OFFLINE_NOISE, waitForServiceWorker } from './support/offline.js';
import { openSignedIn } from './support/signed-in.js';

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

type ServerJob = { id: string; title: string; status: string; updated_at: number };

/** The user's jobs as the server has them (REST with the user's own token). */
async function serverJobs(token: string): Promise<ServerJob[]> {
  const response = await fetch(`${server.url}/api/db/fieldassist/rest/v1/jobs?order=created_at.asc`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`GET jobs answered ${response.status}`);
  return (await response.json()) as ServerJob[];
}

const statusesOf = (jobs: ServerJob[]) => Object.fromEntries(jobs.map((job) => [job.title, job.status]));

describe('My Jobs offline', () => {
  test('created and changed offline, kept across a reload, sent in order once each when the network returns', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'offline-jobs',
    });
    try {
      await app.openTab('My Jobs');
      const jobs = new JobsPage(page);
      await jobs.createJob({ title: 'Boiler check', description: 'Yearly service of the boiler in block A.' });
      await waitForServiceWorker(page);
      const token = (await app.storedTokens())!.access_token;

      await context.setOffline(true);
      await jobs.createJob({
        title: 'Pump seal',
        description: 'The pump in the basement drips at the seal.',
        priority: 'High',
      });
      expect(await jobs.job('Pump seal').getAttribute('data-pending')).toBe('true');
      await jobs.setStatus('Boiler check', 'In Progress');
      await jobs.setStatus('Pump seal', 'Completed');
      expect(await jobs.panel.getByText('Waiting for network').count()).toBe(2);
      await saveScreenshot(page, 'offline-jobs-waiting-phone');

      // Closed and opened again with no network: the jobs and the waiting changes are still there.
      await page.reload();
      await app.waitUntilSignedIn();
      await app.openTab('My Jobs');
      await jobs.job('Pump seal').waitFor();
      expect(await jobs.job('Pump seal').getAttribute('data-status')).toBe('completed');
      expect(await jobs.job('Boiler check').getAttribute('data-status')).toBe('in-progress');
      expect(statusesOf(await serverJobs(token))).toEqual({ 'Boiler check': 'pending' }); // nothing left the phone

      await context.setOffline(false);
      await expect
        .poll(async () => statusesOf(await serverJobs(token)), { timeout: 15_000 })
        .toEqual({ 'Boiler check': 'in-progress', 'Pump seal': 'completed' });
      await jobs.panel.locator('[data-pending]').first().waitFor({ state: 'detached' });
      // Once each: one row per job, and a second return of the network sends nothing again.
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      expect((await serverJobs(token)).map((job) => job.title)).toEqual(['Boiler check', 'Pump seal']);
      await saveScreenshot(page, 'offline-jobs-sent-phone');
      expect(unexpectedErrors(errors, OFFLINE_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a change that lost to a newer one on another device is shown, not dropped; sent after the app was closed', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'conflict',
    });
    try {
      await app.openTab('My Jobs');
      const jobs = new JobsPage(page);
      await jobs.createJob({ title: 'Chiller alarm', description: 'High pressure alarm on chiller 2.' });
      await jobs.createJob({ title: 'Door closer', description: 'Replace the closer on the plant room door.' });
      await waitForServiceWorker(page);

      await context.setOffline(true);
      await jobs.setStatus('Chiller alarm', 'Completed');
      await jobs.setStatus('Door closer', 'In Progress');
      const token = (await app.storedTokens())!.access_token;
      await page.close(); // the app is closed with two changes waiting

      // Meanwhile, on another device, the chiller job is changed after the phone's change.
      const chiller = (await serverJobs(token)).find((job) => job.title === 'Chiller alarm')!;
      const patched = await fetch(`${server.url}/api/db/fieldassist/rest/v1/jobs?id=eq.${chiller.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'in-progress', updated_at: Date.now() + 1000 }),
      });
      expect(patched.ok).toBe(true);

      await context.setOffline(false);
      const reopened = await context.newPage();
      await reopened.goto(server.url);
      const jobsAgain = new JobsPage(reopened);
      const appAgain = new AppShell(reopened);
      await appAgain.waitUntilSignedIn();
      await appAgain.openTab('My Jobs');
      const notice = jobsAgain.panel.getByTestId('job-notice');
      await notice.waitFor();
      expect(await notice.textContent()).toContain(
        'Your change of "Chiller alarm" to Completed was not applied: it was changed to In Progress on another device afterwards.',
      );
      await expect
        .poll(async () => statusesOf(await serverJobs(token)))
        .toEqual({ 'Chiller alarm': 'in-progress', 'Door closer': 'in-progress' });
      await jobsAgain.panel
        .locator('[data-testid="job"][data-status="in-progress"]', { hasText: 'Chiller alarm' })
        .waitFor();
      await saveScreenshot(reopened, 'offline-jobs-conflict-phone');

      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
      expect(unexpectedErrors(errors, OFFLINE_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
