// A photo in the chat, in the browser, against the real built server with no AI model: the
// server reads the nameplate by OCR (tesseract.js), the text read is shown under the photo,
// the answer names the identified manual and cites it, the text can be corrected and asked
// again; a photo without text gets the honest answer.
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { renderPhoto, renderTextlessPhoto } from '../apps/server/src/data/ocr/test-support/render-photo.js';
import { ChatPage } from './pages/chat-page.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { GOOD_PASSWORD, uniqueEmail } from './support/accounts.js';
import { launchBrowser, openPage, saveScreenshot, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { startServer, type TestServer } from './support/server.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const MANUAL = { id: 'manual_gb90', title: 'GB-90 Gas Boiler Installation Guide' };
const PAGES = [
  'Flue installation. The GB-90 flue rises 3 degrees towards the terminal so condensate drains back.',
  'Fault F28: no ignition. Check that the gas isolation valve is open and that the ignition electrode gap is 3 to 4 mm.',
  'Annual service. Clean the heat exchanger, replace the siphon seal and check the flue gas analysis.',
  'Low pressure fault F22: top the system up to 1.2 bar through the filling loop and look for leaks.',
];

let server: TestServer;
let browser: Browser;

/** One manual, written as ingestion would leave it: one chunk per page. */
async function seedManual() {
  const statements = [
    {
      sql: 'INSERT INTO manuals (id, title, file_url, file_name, file_type, processing_status) VALUES (?, ?, ?, ?, ?, ?)',
      args: [MANUAL.id, MANUAL.title, `${server.url}/files/manuals/gb-90.pdf`, 'gb-90.pdf', 'application/pdf', 'ready'],
    },
    { sql: "UPDATE ingestion_jobs SET status = 'done' WHERE manual_id = ?", args: [MANUAL.id] },
    ...PAGES.map((text, i) => ({
      sql: 'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES (?, ?, ?, ?, ?)',
      args: [`${MANUAL.id}_${i}`, MANUAL.id, text, i, i + 1],
    })),
  ];
  const response = await fetch(`${server.url}/api/db/fieldassist/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SERVICE_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ statements }),
  });
  if (!response.ok) throw new Error(`seeding the manual answered ${response.status}: ${await response.text()}`);
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ SIGNUP_MODE: 'open', SERVICE_KEY }), launchBrowser()]);
  await seedManual();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openChat(viewport: ViewportName) {
  const opened = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
  await new HostedAuthPage(opened.page).signUp({ displayName: 'Pat Photo', email: uniqueEmail('photo'), password: GOOD_PASSWORD });
  const chat = new ChatPage(opened.page);
  await chat.waitUntilReady();
  return { ...opened, chat };
}

describe.each(VIEWPORT_NAMES)('a photo in the chat on %s (375 px phone, 1280 px desktop), no AI model', (viewport) => {
  test('shows the text read from a nameplate under it, names and cites its manual, and asks again with corrected text', async () => {
    const { page, context, errors, chat } = await openChat(viewport);
    try {
      const nameplate = await renderPhoto({ style: 'plate', lines: ['THERMAX HEATING', 'MODEL GB-90', 'S/N 2231-7705', 'FAULT F28'], effects: { rotate: 3, blur: 1, brightness: 0.6, noise: 20, glare: 0.5 } });
      await chat.attachFile({ name: 'nameplate.jpg', mimeType: 'image/jpeg', buffer: nameplate });
      await chat.preview.waitFor();
      await chat.input.fill('What is wrong with this unit?');
      await chat.send.click();
      const answer = await chat.waitForAnswer();

      const reading = chat.photoReading(chat.questions.last());
      await reading.waitFor();
      expect(await reading.textContent()).toMatch(/Text read from the photo[\s\S]*MODEL GB-90[\s\S]*FAULT F28/);
      const text = (await answer.textContent()) ?? '';
      expect(text).toMatch(/^From the photo: model GB-90, (serial \S+, )?error F28 -> GB-90 Gas Boiler Installation Guide/);
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
      expect(await again.textContent()).toMatch(/^From the photo: model GB-90, error F22 -> GB-90 Gas Boiler Installation Guide/);
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
      expect(await answer.textContent()).toBe('I could not read any text in this photo, so I cannot tell which unit it shows. Please type the model number from its nameplate, or describe the unit and what it is doing.');
      expect(await chat.sourceLinks(answer).count()).toBe(0);
      expect(await chat.photoReading(chat.questions.last()).textContent()).toContain('No text could be read from this photo.');
      await saveScreenshot(page, `chat-photo-no-text-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
