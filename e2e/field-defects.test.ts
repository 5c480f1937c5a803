// The defects found on a walk through the app as a new user on a phone (issue 18): each has
// its own test here (the Add User ones live in add-user.test.ts).
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';

import { JobsPage } from './pages/jobs-page.js';
import { LibraryPage } from './pages/library-page.js';
import { createAccount, uniqueEmail } from './support/accounts.js';
import { textFile } from './support/library-files.js';
import { saveScreenshot } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { openSignedIn, signInExisting } from './support/signed-in.js';

let adminEmail: string;

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open' });

beforeAll(async () => {
  // The first account of a fresh server is its admin.
  adminEmail = (await createAccount({ serverUrl: server.url, email: uniqueEmail('admin') })).email;
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of every visible element the locator matches. */
async function boxesOf(locator: Locator): Promise<Box[]> {
  const boxes = await Promise.all((await locator.all()).map((element) => element.boundingBox()));
  return boxes.filter((box): box is Box => box !== null && box.width > 0);
}

/** Fails when the visible toast lies over a header button or the visible page heading, or uses another font. */
async function expectToastClear(page: Page, toast: Locator) {
  await toast.waitFor();
  await page.waitForTimeout(400); // sonner slides the toast in; measure where it comes to rest
  const toastBox = (await toast.boundingBox())!;
  const covered = [
    ...(await boxesOf(page.getByRole('banner').getByRole('button'))),
    ...(await boxesOf(page.locator('main:not([hidden]) h1'))),
  ];
  expect(covered.length).toBeGreaterThan(0);
  expect(covered.filter((box) => overlaps(box, toastBox))).toEqual([]);
  const fonts = await toast.evaluate((element) => [
    getComputedStyle(element).fontFamily,
    getComputedStyle(document.body).fontFamily,
  ]);
  expect(fonts[0]).toBe(fonts[1]);
}

describe('defects of issue 18', () => {
  test('library: the download keeps the uploaded name; filters with no match say so and clear; the upload toast covers no heading', async () => {
    const { page, context, errors, app } = await signInExisting({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      email: adminEmail,
    });
    try {
      await app.openTab('Manuals');
      const library = new LibraryPage(page);
      await library.createVersion('Series 1', '2024');
      await library.uploadSingle({
        file: textFile('Pump notes (rev 2).txt', ['Pump P-12 service notes', 'Check the seal every 500 hours.']),
        version: 'Series 1 (2024)',
      });
      await library.dialog.getByRole('button', { name: 'Save Manual' }).click();
      await expectToastClear(page, app.toast.filter({ hasText: 'Manual uploaded successfully' }));
      await saveScreenshot(page, 'defects-upload-toast-phone');

      const card = library.manuals.filter({ hasText: 'Pump notes (rev 2).txt' });
      const href = (await card.getByRole('link', { name: /^Download/ }).getAttribute('href'))!;
      const served = await fetch(new URL(href, server.url));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="Pump notes \(rev 2\)\.txt";/);

      await library.search.fill('no such manual');
      await library.panel.getByText('No manuals match the search and filters.').waitFor();
      expect(await library.panel.textContent()).not.toContain('Upload your first manual to get started');
      await saveScreenshot(page, 'defects-library-no-match-phone');
      await library.panel.getByRole('button', { name: 'Clear filters' }).click();
      await card.waitFor();
      expect(await library.search.inputValue()).toBe('');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('User Role Management on the desktop: Assign Role sits clear of the role select, whose text is not clipped', async () => {
    const { page, context, errors, app } = await signInExisting({
      browser,
      viewport: 'desktop',
      serverUrl: server.url,
      email: adminEmail,
    });
    try {
      await app.openTab('Manuals');
      const library = new LibraryPage(page);
      await library.manageUsers.click();
      const role = library.dialog.getByRole('combobox', { name: 'Role' });
      const assign = library.dialog.getByRole('button', { name: 'Assign Role' });
      expect(overlaps((await role.boundingBox())!, (await assign.boundingBox())!)).toBe(false);
      // The chosen role's whole text fits before the chevron, inside the trigger.
      const fits = await role.evaluate((trigger) => {
        const text = trigger.querySelector('span')!;
        const chevron = trigger.querySelector('svg')!.getBoundingClientRect();
        return text.scrollWidth <= text.clientWidth + 1 && text.getBoundingClientRect().right <= chevron.left;
      });
      expect(await role.textContent()).toContain('Technician – Upload and view');
      expect(fits).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('My Jobs: with the form open the toggle says Close Form, and closes it', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'jobs',
    });
    try {
      await app.openTab('My Jobs');
      const jobs = new JobsPage(page);
      await jobs.addJob.click();
      await jobs.form.waitFor();
      const toggle = jobs.panel.getByRole('button', { name: 'Close Form' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await jobs.panel.getByRole('button', { name: 'Add Job' }).count()).toBe(0);
      await toggle.click();
      await jobs.form.waitFor({ state: 'hidden' });
      expect(await jobs.addJob.getAttribute('aria-expanded')).toBe('false');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
