// A photo in the chat, in the browser, against the real built server with no AI model: the
// server reads the nameplate by OCR (tesseract.js), the text read is shown under the photo,
// the answer names the identified manual and cites it, the text can be corrected and asked
// again; a photo without text gets the honest answer.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';

import { renderPhoto, renderTextlessPhoto } from '../apps/server/src/data/ocr/test-support/render-photo.js';
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

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY });

beforeAll(async () => {
  await seedReadyManual(
    { url: server.url, serviceKey: SERVICE_KEY },
    MANUAL,
    PAGES.map((text, i) => ({ page: i + 1, text })),
  );
});

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
