// A cited PDF page that holds a figure (issue 16): the answer shows a small image of the figure
// under the passage, drawn in the browser by pdf.js once the answer is on screen, and tapping it
// opens the page in the in-app viewer. A real PDF with a wiring diagram on page 2 is uploaded
// and ingested by the real server (which finds the diagram), and the live chat (no AI model)
// answers from it, at phone and desktop width in real Chromium. A figure page whose answer shows
// steps and a command shows them before the page's image.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';

import { makeFigurePdf } from '../apps/server/src/data/fixtures/make-documents.js';
import { ManualViewer } from './pages/manual-viewer.js';
import { saveScreenshot, unexpectedErrors, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { COMPRESSOR, FILTER_PAGE } from './support/compressor-manual.js';
import { askAsNewUser, openChatAsNewUser, seedReadyManual } from './support/seeded-chat.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { serviceApi } from './support/viewer-library.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const TITLE = 'CF-300 Condenser Fan Service Manual';
const PAGES = [
  ['CF-300 Condenser Fan Service Manual', 'Safety: lock out the supply before opening any panel.'],
  [
    'Wiring the fan motor',
    'Wire the CF-300 fan motor M1 through contactor K1 as shown in Figure 2.',
    'Keep the three phases in the order shown, or the fan turns backwards.',
  ],
  ['Cleaning the fan blades', 'Brush the blades clean every 500 hours and check that the fan turns freely.'],
];

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY });

beforeAll(async () => {
  const api = serviceApi(server.url, SERVICE_KEY);
  const pdf = await makeFigurePdf(PAGES, { figurePage: 2 });
  const fileUrl = await api.store('cf-300-service.pdf', 'application/pdf', pdf);
  await api.insert('manuals', {
    id: 'manual_cf300',
    title: TITLE,
    file_url: fileUrl,
    file_name: 'cf-300-service.pdf',
    file_type: 'application/pdf',
  });
  await api.waitUntilReady('manual_cf300', 60);
  // A page with steps and a command that also holds a figure (its file is not stored: its image is not drawn).
  await seedReadyManual({ url: server.url, serviceKey: SERVICE_KEY }, COMPRESSOR, [FILTER_PAGE]);
  await api.sql([{ sql: 'UPDATE manuals SET figure_pages = ARRAY[12] WHERE id = ?', args: [COMPRESSOR.id] }]);
});

describe.each(VIEWPORT_NAMES)('an answer citing a page with a figure, on %s', (viewport: ViewportName) => {
  // Ingestion, sign-up, the answer, pdf.js and the viewer: slow on a loaded machine, so more time than the default.
  test(
    'shows a small image of the page under the passage; tapping it opens the page in the viewer',
    { timeout: 180_000 },
    async () => {
      const { page, context, errors, chat } = await openChatAsNewUser({
        browser,
        serverUrl: server.url,
        viewport,
        displayName: 'Fay Figure',
      });
      const pdfjsRequests: string[] = [];
      page.on('request', (request) => {
        if (/pdf\.worker|pdfjs/i.test(request.url())) pdfjsRequests.push(request.url());
      });
      try {
        // pdf.js is no part of the chat until a page is to be drawn.
        expect(pdfjsRequests).toEqual([]);
        await chat.sendUserMessage('How is the CF-300 fan motor wired?');
        const answer = await chat.waitForAnswer();
        expect(await answer.getAttribute('data-status')).toBe('done');

        // One image, for the page with the diagram, drawn from the PDF.
        const image = answer.getByRole('link', {
          name: `Picture of ${TITLE}, page 2 (a figure or table). Opens the page.`,
        });
        await image.waitFor();
        expect(await answer.locator('[data-page-thumbnail]').count()).toBe(1);
        const box = (await answer.locator('[data-page-thumbnail]').boundingBox())!;
        // The box has the diagram's shape (about 3 : 1), wider than a page-shaped 240 px one.
        expect(box.width).toBeGreaterThan(260);
        expect(box.width / box.height).toBeGreaterThan(2.5);
        expect(pdfjsRequests.length).toBeGreaterThan(0);
        // Only the diagram is drawn, not the page: the image is as wide as the diagram (3 : 1), not
        // as tall as the page; its ink spans most of it, and no blank band runs across it (as
        // between the page's text, at its top, and the diagram, in its middle).
        const ink = await image.locator('img').evaluate(async (img: HTMLImageElement) => {
          await img.decode();
          const canvas = document.createElement('canvas');
          const [width, height] = [img.naturalWidth, img.naturalHeight];
          [canvas.width, canvas.height] = [width, height];
          const context2d = canvas.getContext('2d')!;
          context2d.drawImage(img, 0, 0);
          const { data } = context2d.getImageData(0, 0, width, height);
          let [left, right, top, bottom, blankRows, longestBlank] = [width, -1, height, -1, 0, 0];
          for (let y = 0; y < height; y++) {
            let inked = false;
            for (let x = 0; x < width; x++) {
              const i = (y * width + x) * 4;
              if (data[i]! + data[i + 1]! + data[i + 2]! >= 400) continue;
              [inked, left, right] = [true, Math.min(left, x), Math.max(right, x)];
            }
            if (inked) [top, bottom] = [Math.min(top, y), y];
            // Blank rows counted from the first inked one.
            blankRows = inked || bottom < 0 ? 0 : blankRows + 1;
            longestBlank = Math.max(longestBlank, blankRows);
          }
          return {
            shape: width / height,
            across: (right - left) / width,
            down: (bottom - top) / height,
            blank: longestBlank / height,
          };
        });
        expect(ink.shape).toBeGreaterThan(2);
        expect(ink.across).toBeGreaterThan(0.85);
        expect(ink.down).toBeGreaterThan(0.85);
        expect(ink.blank).toBeLessThan(0.1);

        // Under the passage: after the lead sentence that cites page 2, before the sources list.
        const lead = answer.getByText('Wire the CF-300 fan motor M1 through contactor K1 as shown in Figure 2.');
        const leadBox = (await lead.boundingBox())!;
        const sourcesBox = (await answer.getByRole('list', { name: 'Sources' }).boundingBox())!;
        expect(box.y).toBeGreaterThan(leadBox.y);
        expect(box.y + box.height).toBeLessThan(sourcesBox.y);

        await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await saveScreenshot(page, `answer-figure-${viewport}`);

        await image.click();
        const viewer = new ManualViewer(page);
        await viewer.dialog.waitFor();
        await viewer.waitForPage(2);
        expect(await viewer.title.textContent()).toBe(TITLE);
        await page.keyboard.press('Escape');
        await viewer.dialog.waitFor({ state: 'hidden' });

        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  test("shows the page's steps and command before the image of its page", { timeout: 120_000 }, async () => {
    const { page, context, errors, answer } = await askAsNewUser(
      { browser, serverUrl: server.url, viewport, displayName: 'Fay Figure' },
      'The CX-10 trips on alarm A12, what do I do?',
    );
    try {
      const thumbnail = (await answer.locator('[data-page-thumbnail]').boundingBox())!;
      const steps = (await answer.locator('ol', { hasText: 'Push the new filter in' }).boundingBox())!;
      const command = answer.locator('pre');
      expect(await command.textContent()).toContain('service reset --alarm A12');
      const commandBox = (await command.boundingBox())!;
      // What to do and what to type first; the picture of the page (to tap for the page) after them.
      expect(thumbnail.y).toBeGreaterThanOrEqual(steps.y + steps.height);
      expect(thumbnail.y).toBeGreaterThanOrEqual(commandBox.y + commandBox.height);
      await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await saveScreenshot(page, `answer-figure-after-steps-${viewport}`);
      // The seeded page's file is not stored: its image is not drawn.
      expect(unexpectedErrors(errors, [/Failed to load resource: .* 404 .*cx-10\.pdf/])).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
