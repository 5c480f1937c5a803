// A question the manuals do not answer (issue 15, deliverable 4), in the browser at phone and
// desktop width: the answer says so, then lists the closest pages as suggestions only, and each
// suggestion opens the app's viewer at its page, as a cited source does; after a reload too. Also
// with a model, whose general-knowledge answer follows the same notice and suggestions.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { makePdf } from '../apps/server/src/data/fixtures/make-documents.js';
import { startOpenAiPeer } from '../apps/server/src/test-support/openai-peer.js';
import { ManualViewer } from './pages/manual-viewer.js';
import { saveScreenshot, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { contrastViolations } from './support/contrast.js';
import { startServer, type TestServer } from './support/server.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { openChatAsNewUser, seedReadyManual } from './support/seeded-chat.js';
import { serviceApi } from './support/viewer-library.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const MANUAL = { id: 'manual_cx40', title: 'CX-40 Compressor Service Manual', file: 'cx-40.pdf' };
/** Pages of the manual that touch on belts, none of which says how to change a van's timing belt. */
const PAGES = [
  {
    page: 4,
    heading: 'Belt tension',
    text: 'Check the CX-40 fan belt tension every 500 hours: the belt deflects 10 mm under thumb pressure.',
  },
  { page: 9, text: 'Drain the CX-40 crankcase oil while warm and refill with 2 litres of ISO 68 oil.' },
  { page: 15, text: 'A worn CX-40 drive belt squeals at start-up; replace it as a matched pair.' },
];
const QUESTION = 'How do I replace the timing belt on my delivery van?';

// Full text alone, as the chat's own tests: whether a question is relevant does not then depend
// on how far the background indexer got. A second server answers with a model (a local peer).
const env = { SIGNUP_MODE: 'open', SERVICE_KEY, EMBEDDINGS: 'off' };
const { server, browser } = await startServerAndBrowser(env);
const peer = await startOpenAiPeer();
const modelled = await startServer({
  ...env,
  AI_BASE_URL: peer.baseUrl,
  AI_API_KEY: 'peer-key',
  AI_MODEL: 'peer-model',
});
afterAll(async () => {
  await modelled.stop();
  await peer.close();
});

/** The manual in `on`'s library: a real 16-page PDF, each seeded page's text printed on it, so the viewer draws the page a suggestion names. */
async function addManual(on: TestServer) {
  const pdf = await makePdf(
    Array.from({ length: 16 }, (_, i) => [
      `${MANUAL.title}, page ${i + 1}`,
      PAGES.find((p) => p.page === i + 1)?.text ?? '',
    ]),
  );
  const fileUrl = await serviceApi(on.url, SERVICE_KEY).store(MANUAL.file, 'application/pdf', pdf);
  await seedReadyManual({ url: on.url, serviceKey: SERVICE_KEY }, { ...MANUAL, fileUrl }, PAGES);
}

beforeAll(() => Promise.all([addManual(server), addManual(modelled)]));

const openChat = (viewport: ViewportName, on: TestServer = server) =>
  openChatAsNewUser({ browser, serverUrl: on.url, viewport, displayName: 'Nia Notfound' });

describe.each(VIEWPORT_NAMES)('an answer the manuals do not hold on %s', (viewport) => {
  test('says so, lists the closest pages as suggestions only, and a tap opens the viewer at the page', async () => {
    const { page, context, errors, chat } = await openChat(viewport);
    try {
      await chat.sendUserMessage(QUESTION);
      const answer = await chat.waitForAnswer();
      expect(await answer.getAttribute('data-status')).toBe('done');
      expect(await answer.locator('p').first().textContent()).toBe("I couldn't find this in your manuals.");
      const marker = answer.getByText('Suggestions only, these may not answer your question:', { exact: true });
      await marker.waitFor();

      // Each suggestion is a link to its page, named as the text lists it; none is one of the answer's sources.
      const links = chat.suggestionLinks(answer);
      const labels = await links.allTextContents();
      expect(labels.length).toBeGreaterThan(0);
      expect(labels).toContain(`${MANUAL.title}, page 4 (Belt tension)`);
      for (const [i, label] of labels.entries()) {
        const n = Number(/, page (\d+)/.exec(label)![1]);
        expect(await links.nth(i).getAttribute('href')).toMatch(new RegExp(`/${MANUAL.file}#page=${n}$`));
      }
      expect(await chat.sourceLinks(answer).count()).toBe(0);

      // For gloves and sunlight: whole 44 px lines that do not touch, 16 px text, 7:1 contrast (AAA).
      const boxes = await links.evaluateAll((all) =>
        all.map((el) => {
          const { top, bottom, height } = el.getBoundingClientRect();
          return { top, bottom, height, size: parseFloat(getComputedStyle(el).fontSize) };
        }),
      );
      for (const box of boxes) {
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.size).toBeGreaterThanOrEqual(16);
      }
      boxes.slice(1).forEach((box, i) => expect(box.top).toBeGreaterThanOrEqual(boxes[i]!.bottom));
      expect(await contrastViolations(answer)).toEqual([]);

      await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await saveScreenshot(page, `not-found-suggestions-${viewport}`);

      // The tap opens the manual in the app's viewer at the suggested page.
      const belt = links.filter({ hasText: 'page 4 (Belt tension)' });
      await (viewport === 'phone' ? belt.tap() : belt.click());
      const viewer = new ManualViewer(page);
      await viewer.dialog.waitFor();
      expect(await viewer.title.textContent()).toBe(MANUAL.title);
      await viewer.waitForPage(4);
      await saveScreenshot(page, `not-found-viewer-${viewport}`);
      await page.keyboard.press('Escape');
      await viewer.dialog.waitFor({ state: 'hidden' });

      // The saved answer keeps its suggestions: after a reload they still open their pages.
      await page.reload();
      const saved = chat.answers.first();
      await chat.suggestionLinks(saved).first().waitFor();
      expect(await chat.suggestionLinks(saved).allTextContents()).toEqual(labels);
      await chat.suggestionLinks(saved).filter({ hasText: 'page 4 (Belt tension)' }).click();
      await viewer.waitForPage(4);

      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("with a model: the same notice and suggestions come first, then the model's answer, and a suggestion opens its page", async () => {
    peer.set({ reply: 'From general knowledge, not your manuals: slacken the tensioner first.' });
    const { page, context, errors, chat } = await openChat(viewport, modelled);
    try {
      await chat.sendUserMessage(QUESTION);
      const answer = await chat.waitForAnswer();
      const paragraphs = await answer.locator('p').allTextContents();
      expect(paragraphs[0]).toBe("I couldn't find this in your manuals.");
      expect(paragraphs.at(-1)).toBe('From general knowledge, not your manuals: slacken the tensioner first.');
      const belt = chat.suggestionLinks(answer).filter({ hasText: 'page 4 (Belt tension)' });
      expect(await chat.sourceLinks(answer).count()).toBe(0);
      await (viewport === 'phone' ? belt.tap() : belt.click());
      const viewer = new ManualViewer(page);
      expect(await viewer.title.textContent()).toBe(MANUAL.title);
      await viewer.waitForPage(4);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
