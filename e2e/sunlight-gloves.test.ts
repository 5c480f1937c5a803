// Field use (issue 18): every control a gloved finger uses is at least 44 by 44 CSS pixels on
// a 375-pixel phone (48 for send, attach, menu and a job's status), and text reads in sunlight:
// at least 7:1 contrast (WCAG AAA, axe-core's color-contrast-enhanced) in both themes, on the
// phone and the desktop. Screenshots of every screen in both themes go to e2e/screenshots/.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';

import type { AppShell } from './pages/app-shell.js';
import { TAB_LABELS, type TabLabel } from './pages/app-shell.js';
import { ChatPage } from './pages/chat-page.js';
import { JobsPage } from './pages/jobs-page.js';
import { LibraryPage } from './pages/library-page.js';
import { createAccount, uniqueEmail } from './support/accounts.js';
import { saveScreenshot, VIEWPORT_NAMES } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { newServiceKey, seedManual, SEEDED_MANUAL } from './support/seed-manual.js';
import { signInExisting } from './support/signed-in.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SERVICE_KEY = newServiceKey();

let adminEmail: string;

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY });

beforeAll(async () => {
  adminEmail = (await createAccount({ serverUrl: server.url, email: uniqueEmail('admin'), displayName: 'Sam Field' }))
    .email;
  await seedManual({ serverUrl: server.url, serviceKey: SERVICE_KEY });
});

type Target = { name: string; width: number; height: number; minimum: number };

/** Every visible control on the page with its size and the minimum it must reach. */
function measureTargets(page: Page): Promise<Target[]> {
  return page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=combobox], [role=radio], [role=checkbox], [role=menuitem], [role=option], [role=tab], [tabindex]:not([tabindex="-1"])';
    const primary = /^(Send message|Attach image|Open menu|Status of .*)$/;
    return [...document.querySelectorAll<HTMLElement>(selector)]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        // Visually hidden helpers (sr-only, Radix's native select) are 1 px: no finger aims at them.
        return box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && !element.closest('[hidden]');
      })
      .map((element) => {
        const box = element.getBoundingClientRect();
        const name =
          (element.getAttribute('aria-label') ?? element.textContent ?? element.tagName).trim().slice(0, 60) ||
          element.tagName;
        return {
          name,
          width: Math.round(box.width * 10) / 10,
          height: Math.round(box.height * 10) / 10,
          minimum: primary.test(name) ? 48 : 44,
        };
      });
  });
}

const tooSmall = (targets: Target[]) =>
  targets.filter((target) => target.width < target.minimum || target.height < target.minimum);

/** axe-core's AAA contrast rule (7:1, 4.5:1 for large text) on what is on screen now. */
async function contrastViolations(page: Page): Promise<string[]> {
  // The colours at rest: a finger leaves no hover behind, and the button just pressed finishes its
  // colour transition (150 ms) before it is measured.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: unknown,
            options: unknown,
          ) => Promise<{ violations: { nodes: { target: string[]; failureSummary: string }[] }[] }>;
        };
      }
    ).axe;
    // Toasts are left out: one caught fading in or out is half transparent (they use the palette's popover colours).
    const result = await axe.run(
      { exclude: [['[data-sonner-toaster]']] },
      { runOnly: { type: 'rule', values: ['color-contrast-enhanced'] }, resultTypes: ['violations'] },
    );
    return result.violations.flatMap((violation) =>
      violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary.replace(/\s+/g, ' ')}`),
    );
  });
  return violations;
}

/** Puts each main screen in the state a technician sees it in, then runs `check` on it. */
async function everyScreen(page: Page, app: AppShell, check: (screen: string) => Promise<void>) {
  for (const tab of TAB_LABELS) {
    await app.openTab(tab);
    await prepare(page, tab);
    await check(tab);
  }
  if (!(await app.menuButton.isVisible())) return; // wide screens have the tab bar instead
  await app.menuButton.click();
  await app.menu.waitFor();
  await check('menu');
  await page.keyboard.press('Escape');
}

async function prepare(page: Page, tab: TabLabel) {
  if (tab === 'AI Assistant') {
    const chat = new ChatPage(page);
    await chat.answers.first().or(chat.emptyHeading).waitFor(); // the history has loaded
    if ((await chat.answers.count()) === 0) {
      await chat.sendUserMessage('What does fault E4 mean?');
      await chat.sourceLinks().first().waitFor();
    }
  } else if (tab === 'My Jobs') {
    const jobs = new JobsPage(page);
    await jobs.jobs.first().or(jobs.emptyState).waitFor(); // the list has loaded
    if ((await jobs.jobs.count()) === 0)
      await jobs.createJob({
        title: 'Rooftop unit E4',
        description: 'Compressor locked out on the roof of block C.',
        priority: 'High',
      });
    if (!(await jobs.form.isVisible())) await jobs.addJob.click();
  } else if (tab === 'Manuals') {
    const library = new LibraryPage(page);
    await library.manual(SEEDED_MANUAL.title).waitFor();
    if ((await library.tagFilter.count()) === 0) await library.createTag('Rooftop');
  } else if (tab === 'Profile') {
    await page.getByRole('radiogroup', { name: 'Appearance' }).waitFor();
  }
}

describe('sunlight and gloves', () => {
  test('every visible control on every tab and in the menu is at least 44 px (48 for send, attach, menu, status)', async () => {
    const { page, context, errors, app } = await signInExisting({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      email: adminEmail,
    });
    try {
      const failures: string[] = [];
      let measured = 0;
      await everyScreen(page, app, async (screen) => {
        const targets = await measureTargets(page);
        measured += targets.length;
        failures.push(
          ...tooSmall(targets).map((t) => `${screen}: "${t.name}" is ${t.width}x${t.height}, needs ${t.minimum}`),
        );
        if (screen !== 'menu')
          await saveScreenshot(page, `field-${screen.replace(/\s+/g, '-').toLowerCase()}-light-phone`);
      });
      expect(failures).toEqual([]);
      expect(measured).toBeGreaterThan(60); // it really looked at the screens
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test.each(VIEWPORT_NAMES)(
    'text contrast is at least 7:1 on the main screens in the light and the dark theme on %s; the choice is kept',
    async (viewport) => {
      const { page, context, errors, app } = await signInExisting({
        browser,
        viewport,
        serverUrl: server.url,
        email: adminEmail,
      });
      try {
        const failures: string[] = [];
        await everyScreen(page, app, async (screen) => {
          failures.push(...(await contrastViolations(page)).map((v) => `light ${screen}: ${v}`));
          if (screen !== 'menu' && viewport === 'desktop')
            await saveScreenshot(page, `field-${screen.replace(/\s+/g, '-').toLowerCase()}-light-${viewport}`);
        });

        await app.openTab('Profile');
        await page.getByRole('radio', { name: 'Dark' }).click();
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
        await everyScreen(page, app, async (screen) => {
          failures.push(...(await contrastViolations(page)).map((v) => `dark ${screen}: ${v}`));
          if (screen !== 'menu')
            await saveScreenshot(page, `field-${screen.replace(/\s+/g, '-').toLowerCase()}-dark-${viewport}`);
        });
        expect(failures).toEqual([]);

        await page.reload();
        await app.waitUntilSignedIn();
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  test('System follows the device: dark when the system is dark, light when it turns light', async () => {
    const { page, context, errors, app } = await signInExisting({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      email: adminEmail,
    });
    try {
      await app.openTab('Profile');
      await page.getByRole('radio', { name: 'System' }).click();
      expect(await page.getByRole('radio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
      const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(isDark).toBe(true);
      await page.emulateMedia({ colorScheme: 'light' });
      await expect.poll(isDark).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
