import { describe, expect, test } from 'vitest';

import { JobsPage } from './pages/jobs-page.js';
import { saveScreenshot, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { openSignedIn, signInExisting } from './support/signed-in.js';

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

describe.each(VIEWPORT_NAMES)('My Jobs on %s', (viewport) => {
  test('create jobs, change a status, reload and still see them; another user never does', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport,
      serverUrl: server.url,
      label: `jobs-${viewport}`,
    });
    try {
      await app.openTab('My Jobs');
      const jobs = new JobsPage(page);
      await jobs.emptyState.waitFor();
      expect(await jobs.panel.textContent()).toContain('Create your first job to get started');
      expect(await jobs.panel.textContent()).toContain('Track and manage your field assignments');

      // Title and description are required: nothing is created without them.
      await jobs.addJob.click();
      await jobs.form.getByRole('button', { name: 'Create Job' }).click();
      expect(await jobs.jobs.count()).toBe(0);
      expect(await jobs.form.getByRole('combobox', { name: 'Priority' }).textContent()).toBe('Medium');
      await saveScreenshot(page, `jobs-form-${viewport}`);
      await jobs.form.getByRole('button', { name: 'Cancel' }).click();
      await jobs.form.waitFor({ state: 'hidden' });

      await jobs.createJob({
        title: 'AC Unit Repair',
        description: 'Compressor trips the breaker after ten minutes.',
        priority: 'High',
      });
      await jobs.createJob({
        title: 'Boiler service',
        description: 'Yearly check and pressure test.',
        priority: 'Low',
      });
      await jobs.createJob({ title: 'Replace filter', description: 'Rooftop unit 3.' });
      expect(await jobs.titles()).toEqual(['Replace filter', 'Boiler service', 'AC Unit Repair']);
      expect(await jobs.job('AC Unit Repair').textContent()).toContain('HIGH PRIORITY');
      expect(await jobs.job('Replace filter').textContent()).toContain('MEDIUM PRIORITY');
      expect(await jobs.job('Boiler service').textContent()).toMatch(/Created \w+/);

      await jobs.setStatus('AC Unit Repair', 'In Progress');
      await jobs.setStatus('Boiler service', 'Completed');
      await saveScreenshot(page, `jobs-list-${viewport}`);

      await page.reload();
      await app.waitUntilSignedIn();
      await app.openTab('My Jobs');
      await jobs.job('AC Unit Repair').waitFor();
      expect(await jobs.titles()).toEqual(['Replace filter', 'Boiler service', 'AC Unit Repair']);
      expect(await jobs.job('AC Unit Repair').getAttribute('data-status')).toBe('in-progress');
      expect(await jobs.job('Boiler service').getAttribute('data-status')).toBe('completed');
      expect(await jobs.job('Replace filter').getAttribute('data-status')).toBe('pending');
      expect(await jobs.statusSelect('Boiler service').textContent()).toBe('Completed');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        page.viewportSize()!.width,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }

    const other = await openSignedIn({ browser, viewport, serverUrl: server.url, label: `other-${viewport}` });
    try {
      await other.app.openTab('My Jobs');
      const jobs = new JobsPage(other.page);
      await jobs.emptyState.waitFor();
      expect(await jobs.jobs.count()).toBe(0);
      await saveScreenshot(other.page, `jobs-other-user-${viewport}`);
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});

describe('My Jobs on two devices', () => {
  test('a job created or changed on the phone appears on the desktop without a reload', async () => {
    const desktop = await openSignedIn({ browser, viewport: 'desktop', serverUrl: server.url, label: 'two-devices' });
    const phone = await signInExisting({ browser, viewport: 'phone', serverUrl: server.url, email: desktop.email });
    try {
      await desktop.app.openTab('My Jobs');
      await phone.app.openTab('My Jobs');
      const onDesktop = new JobsPage(desktop.page);
      const onPhone = new JobsPage(phone.page);
      await onDesktop.emptyState.waitFor();

      await onPhone.createJob({
        title: 'Chiller alarm',
        description: 'High head pressure alarm on chiller 2.',
        priority: 'High',
      });
      await onDesktop.job('Chiller alarm').waitFor({ timeout: 10_000 });
      await onPhone.setStatus('Chiller alarm', 'Completed');
      await desktop.page.waitForFunction(
        () => document.querySelector('[data-status="completed"]') !== null,
        undefined,
        { timeout: 10_000 },
      );
      await saveScreenshot(desktop.page, 'jobs-live-desktop');
      expect(desktop.errors).toEqual([]);
      expect(phone.errors).toEqual([]);
    } finally {
      await desktop.context.close();
      await phone.context.close();
    }
  });
});
