// A photo in the chat, in the browser, against the real built server with no AI model: the
// server reads the nameplate by OCR (tesseract.js), the text read is shown under the photo,
// the answer names the identified manual and cites it, the text can be corrected and asked
// again; a photo without text gets the honest answer.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, test } from 'vitest';

import { renderPhoto, renderTextlessPhoto } from '../apps/server/src/data/ocr/test-support/render-photo.js';
import type { Locator, Page } from 'playwright-core';

import { contrastViolations } from './support/contrast.js';
import { saveScreenshot, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { openChatAsNewUser, seedReadyManual } from './support/seeded-chat.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const MANUAL = { id: 'manual_gb90', title: 'GB-90 Gas Boiler Installation Guide', file: 'gb-90.pdf' };
const PAGES = [
  'Flue installation. The GB-90 flue rises 3 degrees towards the terminal so condensate drains back.',
  'Fault F28: no ignition. Check that the gas isolation valve is open and that the ignition electrode gap is 3 to 4 mm.',
  'Annual service. Clean the heat exchanger, replace the siphon seal and check the flue gas analysis.',
  'Low pressure fault F22: top the system up to 1.2 bar through the filling loop and look for leaks.',
];

const PROGRAMMER_MANUAL = { id: 'manual_avrdude', title: 'AVRDUDE User Manual', file: 'avrdude.pdf' };
const PROGRAMMER_PAGES = [
  'Examples. Enter terminal mode with avrdude -c jtag2 -p m649 -t; avrdude prints the device signature 0x1e9603 and waits for commands.',
  '-F Normally AVRDUDE checks that the device signature read from the part is reasonable before continuing. An invalid signature of 0x000000 means the programmer gets no answer from the chip: check the connections and the target supply, or slow the ISP clock with -B.',
];

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY });

beforeAll(async () => {
  await seedReadyManual(
    { url: server.url, serviceKey: SERVICE_KEY },
    MANUAL,
    PAGES.map((text, i) => ({ page: i + 1, text })),
  );
  await seedReadyManual(
    { url: server.url, serviceKey: SERVICE_KEY },
    PROGRAMMER_MANUAL,
    PROGRAMMER_PAGES.map((text, i) => ({ page: i + 1, text })),
  );
});

/** Resolves once the conversation has stopped gliding (its scroll position unchanged for half a second). */
async function waitForScrollToSettle(page: Page, conversation: Locator): Promise<void> {
  let last = -1;
  for (let still = 0; still < 5;) {
    await page.waitForTimeout(100);
    const top = await conversation.evaluate((element) => element.scrollTop);
    still = top === last ? still + 1 : 0;
    last = top;
  }
}

/** Whether `element`'s box lies wholly inside the visible part of the conversation. */
async function isOnScreen(element: Locator, conversation: Locator): Promise<boolean> {
  const [box, frame] = [await element.boundingBox(), await conversation.boundingBox()];
  return !!box && !!frame && box.y >= frame.y - 0.5 && box.y + box.height <= frame.y + frame.height + 0.5;
}

const openChat = (viewport: ViewportName) =>
  openChatAsNewUser({ browser, serverUrl: server.url, viewport, displayName: 'Pat Photo' });

describe.each(VIEWPORT_NAMES)('a photo in the chat on %s (375 px phone, 1280 px desktop), no AI model', (viewport) => {
  test('shows the text read from a nameplate under it, names and cites its manual, and asks again with corrected text', async () => {
    const { page, context, errors, chat } = await openChat(viewport);
    try {
      const nameplate = await renderPhoto({
        style: 'plate',
        lines: ['THERMAX HEATING', 'MODEL GB-90', 'S/N 2231-7705', 'FAULT F28'],
        effects: { rotate: 3, blur: 1, brightness: 0.6, noise: 20, glare: 0.5 },
      });
      await chat.attachFile({ name: 'nameplate.jpg', mimeType: 'image/jpeg', buffer: nameplate });
      await chat.preview.waitFor();
      await chat.input.fill('What is wrong with this unit?');
      await chat.send.click();
      const answer = await chat.waitForAnswer();

      const reading = chat.photoReading(chat.questions.last());
      await reading.waitFor();
      expect(await reading.textContent()).toMatch(/Text read from the photo[\s\S]*MODEL GB-90[\s\S]*FAULT F28/);
      const text = (await answer.textContent()) ?? '';
      expect(text).toMatch(
        /^From the photo: model GB-90, (serial \S+, )?error F28 -> GB-90 Gas Boiler Installation Guide/,
      );
      const links = chat.sourceLinks(answer);
      expect(await links.first().textContent()).toBe(`${MANUAL.title}, page 2`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // Gloved thumbs: the correction button is at least 44 px tall.
      const correct = reading.getByRole('button', { name: 'Correct text' });
      expect((await correct.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      // The photo, the text read from it and the answer's first lines, as the technician scrolls back up to them.
      await chat.questions.last().evaluate((element) => element.scrollIntoView({ block: 'start' }));
      // A copy of each of these screenshots, looked at, is kept in e2e/screenshots/reviewed/.
      await saveScreenshot(page, `chat-photo-nameplate-${viewport}`);

      // The technician reads the display again and corrects the fault code.
      await correct.click();
      const field = reading.getByRole('textbox', { name: 'Correct the text read from the photo' });
      await field.fill('MODEL GB-90\nFAULT F22');
      await reading.getByRole('button', { name: 'Ask again' }).click();
      await chat.answers.nth(1).waitFor();
      const again = await chat.waitForAnswer();
      expect(await again.textContent()).toMatch(
        /^From the photo: model GB-90, error F22 -> GB-90 Gas Boiler Installation Guide/,
      );
      expect(await chat.sourceLinks(again).first().textContent()).toBe(`${MANUAL.title}, page 4`);
      expect(await chat.photoReading(chat.questions.last()).textContent()).toContain('FAULT F22');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("puts a photographed error screen's answer on the first screen: the photo a thumbnail that opens full size, the text read shortened but whole and correctable", async () => {
    const { page, context, errors, chat } = await openChat(viewport);
    try {
      // A phone photo of a terminal (bench/chat-photos): nine lines of avrdude output, read by OCR.
      const screen = await readFile(
        new URL('../apps/server/src/data/ocr/test-support/avrdude-signature.jpg', import.meta.url),
      );
      await chat.attachFile({ name: 'screen.jpg', mimeType: 'image/jpeg', buffer: screen });
      await chat.preview.waitFor();
      await chat.send.click();
      const answer = await chat.waitForAnswer();
      const question = chat.questions.last();
      await chat.photoReading(question).waitFor();
      await waitForScrollToSettle(page, chat.conversation);
      // A copy of each of these screenshots, looked at, is kept in e2e/screenshots/reviewed/.
      await saveScreenshot(page, `chat-photo-screen-${viewport}`);

      // The first screen after sending: the answer's first line, and the photo above it.
      const firstLine = answer.locator('p').first();
      expect(await firstLine.textContent()).toMatch(/^From the photo: "avrdude: Yikes! Invalid device signature\./);
      expect(await isOnScreen(firstLine, chat.conversation)).toBe(true);
      const photo = question.getByRole('img', { name: 'Attached photo' });
      expect(await isOnScreen(photo, chat.conversation)).toBe(true);
      // Scrolled back to the question (as bench/chat-photos/walk.ts looks at it): the answer starts on that screen too.
      await question.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      expect(await isOnScreen(firstLine, chat.conversation)).toBe(true);

      // The text read is all there, readable in sunlight (7:1), and can be shown whole and corrected with a gloved thumb.
      const reading = chat.photoReading(question);
      expect(await contrastViolations(reading)).toEqual([]);
      expect(await reading.textContent()).toMatch(/Invalid device signature[\s\S]*avrdude done/);
      for (const name of ['Show all', 'Correct text']) {
        const button = reading.getByRole('button', { name });
        expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      }
      const shortened = (await reading.locator('[data-photo-text]').boundingBox())!.height;
      await reading.getByRole('button', { name: 'Show all' }).click();
      expect((await reading.locator('[data-photo-text]').boundingBox())!.height).toBeGreaterThan(shortened);
      await reading.getByRole('button', { name: 'Show less' }).waitFor();
      await saveScreenshot(page, `chat-photo-screen-text-${viewport}`);

      // A tap on the thumbnail opens the photo full size, and it closes again.
      const thumbnailWidth = (await photo.boundingBox())!.width;
      await question.getByRole('button', { name: 'Open the photo full size' }).click();
      const dialog = page.getByRole('dialog', { name: 'Attached photo' });
      const full = dialog.getByRole('img', { name: 'Attached photo, full size' });
      await full.waitFor();
      await full.evaluate((img: HTMLImageElement) => img.decode());
      await saveScreenshot(page, `chat-photo-full-size-${viewport}`);
      expect((await full.boundingBox())!.width).toBeGreaterThan(thumbnailWidth * 2);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('says plainly that a photo without text could not be read, and asks for the model number', async () => {
    const { page, context, errors, chat } = await openChat(viewport);
    try {
      await chat.attachFile({ name: 'pump.jpg', mimeType: 'image/jpeg', buffer: await renderTextlessPhoto() });
      await chat.preview.waitFor();
      await chat.send.click();
      const answer = await chat.waitForAnswer();
      expect(await answer.textContent()).toBe(
        'I could not read any text in this photo, so I cannot tell which unit it shows. Please type the model number from its nameplate, or describe the unit and what it is doing.',
      );
      expect(await chat.sourceLinks(answer).count()).toBe(0);
      expect(await chat.photoReading(chat.questions.last()).textContent()).toContain(
        'No text could be read from this photo.',
      );
      await saveScreenshot(page, `chat-photo-no-text-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
