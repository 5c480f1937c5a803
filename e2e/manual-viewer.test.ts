// The in-app manual viewer (issue 16, deliverable 3) against the real server: a cited source
// opens the manual at its page with the passage marked, on a phone (full-screen sheet) and a
// desktop (panel beside the chat); a 350-page PDF opens at page 300 fetching byte ranges and
// drawing one page; a scan whose image is JPEG 2000 is drawn (pdf.js's wasm decoder, allowed by
// the CSP); a Word manual opens at its passage; a missing file says so.
//
// The live chat (no AI model) cites page 3 of a real ingested PDF and quotes the sentence it
// lifted, which the viewer marks. The other manuals come with the sources of a saved answer (the
// chatMessages row as the server saves it), so each case is proven on words chosen here.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { makeDocx } from '../apps/server/src/data/fixtures/make-documents.js';
import { makeJpxScanPdf } from '../apps/server/src/data/ocr/test-support/scanned-pdf.js';
import { AppShell } from './pages/app-shell.js';
import { ChatPage } from './pages/chat-page.js';
import { ManualViewer } from './pages/manual-viewer.js';
import { createAccount, uniqueEmail } from './support/accounts.js';
import { saveScreenshot, unexpectedErrors, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { RTU_FAULT, RTU_TITLE, rtuManualPdf } from './support/library-files.js';
import { signInExisting } from './support/signed-in.js';
import { LONG_TITLE, longManualPassage, longManualPdf, serviceApi } from './support/viewer-library.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const WORD_TITLE = 'Chiller start-up guide';
const WORD_PASSAGE = 'Open the isolation valves before starting the compressor.';
const SCAN_TITLE = 'Archive scan of the parts list';

let email: string;
let api: ReturnType<typeof serviceApi>;
const files: Record<'rtu' | 'long' | 'word' | 'scan', string> = { rtu: '', long: '', word: '', scan: '' };

/** The RTU manual in the library, ingested for real, so the live chat cites its page 3. */
async function addRtuManual(fileUrl: string) {
  await api.insert('manuals', {
    id: 'manual_rtu',
    title: RTU_TITLE,
    file_url: fileUrl,
    file_name: 'rtu-500-service.pdf',
    file_type: 'application/pdf',
  });
  await api.waitUntilReady('manual_rtu', 30);
}

/** A saved answer whose sources carry the passages they cite, as the chat saves them. */
function addSavedAnswer() {
  return api.saveAnswer({
    email,
    question: 'What do I check first?',
    answer: 'Replace the fan capacitor, then torque the bolts and open the valves.',
    sources: [
      { manualId: 'manual_rtu', title: RTU_TITLE, page: 3, fileUrl: files.rtu, quote: `${RTU_FAULT}.` },
      { manualId: 'manual_long', title: LONG_TITLE, page: 300, fileUrl: files.long, quote: longManualPassage(300) },
      { manualId: 'manual_word', title: WORD_TITLE, page: 1, fileUrl: files.word, quote: WORD_PASSAGE },
      { manualId: 'manual_scan', title: SCAN_TITLE, page: 1, fileUrl: files.scan, quote: 'Part PN-3390-K' },
      {
        manualId: 'manual_gone',
        title: 'Removed manual',
        page: 2,
        fileUrl: `${server.url}/files/manuals/none/removed.pdf`,
        quote: 'Anything.',
      },
    ],
  });
}

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY });

beforeAll(async () => {
  api = serviceApi(server.url, SERVICE_KEY);
  email = uniqueEmail('viewer');
  await createAccount({ serverUrl: server.url, email });
  const [rtu, long, word, scan] = await Promise.all([
    rtuManualPdf(),
    longManualPdf(),
    makeDocx([
      WORD_TITLE,
      'Check the water flow switch.',
      'Open the isolation valves',
      'before starting the compressor.',
    ]),
    makeJpxScanPdf(),
  ]);
  files.rtu = await api.store(rtu.name, rtu.mimeType, rtu.buffer);
  files.long = await api.store('compressor-350.pdf', 'application/pdf', long);
  files.word = await api.store(
    'chiller-guide.docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    word,
  );
  files.scan = await api.store('parts-list-scan.pdf', 'application/pdf', scan);
  await addRtuManual(files.rtu);
  await addSavedAnswer();
});

/** The saved answer's source link for `title`. */
const sourceOf = (chat: ChatPage, title: string) => chat.sourceLinks(chat.answers.first()).filter({ hasText: title });

describe.each(VIEWPORT_NAMES)('manual viewer on %s', (viewport: ViewportName) => {
  let page: Page;
  let chat: ChatPage;
  let viewer: ManualViewer;
  let errors: string[];
  let closeContext: () => Promise<void>;

  beforeAll(async () => {
    const opened = await signInExisting({ browser, viewport, serverUrl: server.url, email });
    ({ page, errors } = opened);
    closeContext = () => opened.context.close();
    chat = new ChatPage(page);
    viewer = new ManualViewer(page);
    await new AppShell(page).openTab('AI Assistant');
    await chat.answers.first().waitFor();
  });
  afterAll(async () => {
    await closeContext?.();
  });
  // A failed test leaves no viewer open over the next one.
  afterEach(async () => {
    if (await viewer.dialog.isVisible()) await page.keyboard.press('Escape');
  });

  test('a cited page opens in the viewer at that page, the passage marked; pages turn, zoom works, Escape returns focus', async () => {
    const source = sourceOf(chat, `${RTU_TITLE}, page 3`);
    await source.click();
    await viewer.waitForPage(3);
    expect(await viewer.title.textContent()).toBe(RTU_TITLE);
    expect(await viewer.pageLabel.textContent()).toBe('Page 3 of 3');
    expect(await viewer.markedText()).toBe(`${RTU_FAULT}.`);
    expect(await viewer.notFound.count()).toBe(0);

    // Where it sits: beside the conversation on the desktop, over everything on the phone.
    const box = (await viewer.dialog.boundingBox())!;
    const window = page.viewportSize()!;
    if (viewport === 'desktop') {
      expect(box.x + box.width).toBe(window.width);
      expect(box.width).toBe(window.width / 2);
      const conversation = (await chat.conversation.boundingBox())!;
      expect(conversation.x + conversation.width).toBeLessThanOrEqual(box.x);
      expect(await chat.input.isEditable()).toBe(true);
    } else {
      expect(box).toEqual({ x: 0, y: 0, width: window.width, height: window.height });
    }
    // Every control is big enough for a gloved thumb.
    for (const control of [
      viewer.previous,
      viewer.next,
      viewer.zoomIn,
      viewer.zoomOut,
      viewer.download,
      viewer.close,
    ]) {
      const size = (await control.boundingBox())!;
      expect(Math.min(size.width, size.height)).toBeGreaterThanOrEqual(44);
    }
    expect(await viewer.download.getAttribute('href')).toBe(`${files.rtu}?download=1`);
    await saveScreenshot(page, `viewer-pdf-${viewport}`);

    await viewer.previous.click();
    await viewer.waitForPage(2);
    expect(await viewer.pageLabel.textContent()).toBe('Page 2 of 3');
    expect(await viewer.marks.count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await viewer.waitForPage(3);
    expect(await viewer.markedText()).toBe(`${RTU_FAULT}.`);
    expect(await viewer.next.isDisabled()).toBe(true);

    const before = (await viewer.sheet.boundingBox())!.width;
    await viewer.zoomIn.click();
    await page.waitForFunction(
      (width) => (document.querySelector('[data-drawn-page]')?.getBoundingClientRect().width ?? 0) > width * 1.2,
      before,
    );
    await viewer.zoomOut.click();
    await page.waitForFunction(
      (width) =>
        Math.abs((document.querySelector('[data-drawn-page]')?.getBoundingClientRect().width ?? 0) - width) < 2,
      before,
    );

    await page.keyboard.press('Escape');
    await viewer.dialog.waitFor({ state: 'hidden' });
    // Radix gives focus back a moment after the viewer is gone (a timeout of its focus scope).
    await page.waitForFunction((label) => document.activeElement?.textContent === label, `${RTU_TITLE}, page 3`);
    expect(await source.evaluate((link) => link === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
  });

  test.runIf(viewport === 'desktop')(
    'a tablet turned while the viewer is open (panel to full-screen sheet) still gives focus back to the source on Escape',
    async () => {
      const source = sourceOf(chat, `${RTU_TITLE}, page 3`);
      await source.click();
      await viewer.waitForPage(3);
      const wide = page.viewportSize()!;
      // Below the lg breakpoint the panel becomes a modal sheet: Radix mounts its focus scope anew.
      await page.setViewportSize({ width: 800, height: wide.height });
      try {
        await page.waitForFunction(
          () => document.querySelector('[data-testid="manual-viewer"]')?.getBoundingClientRect().x === 0,
        );
        await viewer.waitForPage(3);
        await page.keyboard.press('Escape');
        await viewer.dialog.waitFor({ state: 'hidden' });
        await page.waitForFunction((label) => document.activeElement?.textContent === label, `${RTU_TITLE}, page 3`);
        expect(await source.evaluate((link) => link === document.activeElement)).toBe(true);
      } finally {
        await page.setViewportSize(wide);
      }
      expect(errors).toEqual([]);
    },
  );

  test.runIf(viewport === 'phone')(
    'two fingers spread apart zoom the page in, and it is drawn again at the new size',
    async () => {
      await sourceOf(chat, `${RTU_TITLE}, page 3`).click();
      await viewer.waitForPage(3);
      const before = (await viewer.sheet.boundingBox())!.width;
      // A real two-finger gesture through Chromium's touch input: 100 px apart, then 150 px.
      const cdp = await page.context().newCDPSession(page);
      const fingers = (gap: number) => [
        { x: 187 - gap / 2, y: 400, id: 0 },
        { x: 187 + gap / 2, y: 400, id: 1 },
      ];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(100) });
      for (const gap of [110, 120, 130, 140, 150])
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(gap) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await page.waitForFunction(
        (width) => (document.querySelector('[data-drawn-page]')?.getBoundingClientRect().width ?? 0) > width * 1.4,
        before,
      );
      const after = (await viewer.sheet.boundingBox())!.width;
      expect(after / before).toBeCloseTo(1.5, 1);
      expect(await viewer.sheet.evaluate((sheet) => getComputedStyle(sheet).transform)).toBe('none'); // drawn anew, not stretched
      expect(await viewer.markedText()).toBe(`${RTU_FAULT}.`);
      await cdp.detach();
      expect(errors).toEqual([]);
    },
  );

  test('the live answer (no AI model) cites page 3 of the ingested manual, and its source opens there with the quoted sentence marked', async () => {
    await chat.sendUserMessage('What does fault E7 mean?');
    const answer = await chat.waitForAnswer();
    expect(await answer.textContent()).toContain(RTU_FAULT);
    await chat
      .sourceLinks(answer)
      .filter({ hasText: `${RTU_TITLE}, page 3` })
      .click();
    await viewer.waitForPage(3);
    expect(await viewer.pageLabel.textContent()).toBe('Page 3 of 3');
    // The composed answer quotes the sentence it lifted; the viewer marks it on the page.
    expect(await viewer.markedText()).toContain(RTU_FAULT);
    expect(await viewer.notFound.count()).toBe(0);
    await viewer.close.click();
    await viewer.dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  test('a 350-page PDF opens at page 300 by byte ranges, drawing one page only, and stays responsive', async () => {
    const answered: number[] = [];
    const onResponse = (response: { url(): string; status(): number }) =>
      response.url().startsWith(files.long) && answered.push(response.status());
    page.on('response', onResponse);
    try {
      await sourceOf(chat, `${LONG_TITLE}, page 300`).click();
      await viewer.waitForPage(300);
      expect(await viewer.pageLabel.textContent()).toBe('Page 300 of 350');
      expect(await viewer.markedText()).toBe(longManualPassage(300));
      expect(await viewer.dialog.locator('canvas').count()).toBe(1);
      expect(answered).toContain(206); // pdf.js asked for parts of the file, not all of it
      if (viewport === 'phone') await saveScreenshot(page, `viewer-long-${viewport}`);
      await viewer.next.click();
      await viewer.waitForPage(301);
      expect(await viewer.dialog.locator('canvas').count()).toBe(1);
      expect(await viewer.marks.count()).toBe(0);
      await page.keyboard.press('Escape');
      await viewer.dialog.waitFor({ state: 'hidden' });
    } finally {
      page.off('response', onResponse);
    }
    expect(errors).toEqual([]);
  });

  test.runIf(viewport === 'phone')(
    'a scan whose image is JPEG 2000 is drawn, not left blank (pdf.js decodes it in wasm, which the CSP allows)',
    async () => {
      await sourceOf(chat, SCAN_TITLE).click();
      await viewer.waitForPage(1);
      // The share of the drawn page's pixels that are dark: the line of text, about 5%; 0 when blank.
      const ink = await viewer.dialog.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 3 * 128) dark++;
        return dark / (data.length / 4);
      });
      expect(ink).toBeGreaterThan(0.01);
      await page.keyboard.press('Escape');
      await viewer.dialog.waitFor({ state: 'hidden' });
      expect(errors).toEqual([]);
    },
  );

  test('a Word manual opens as its text, scrolled to the passage, which is marked', async () => {
    await sourceOf(chat, WORD_TITLE).click();
    await viewer.text.waitFor();
    expect(await viewer.title.textContent()).toBe(WORD_TITLE);
    expect(await viewer.markedText()).toBe('Open the isolation valves before starting the compressor.');
    expect(await viewer.text.textContent()).toContain('Check the water flow switch.');
    expect(await viewer.marks.first().isVisible()).toBe(true);
    await saveScreenshot(page, `viewer-word-${viewport}`);
    await viewer.close.click();
    await viewer.dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
  });

  test('a manual whose file is gone says so, with a way to try again', async () => {
    await sourceOf(chat, 'Removed manual').click();
    await viewer.problem.waitFor();
    expect(await viewer.problem.textContent()).toContain("The manual's file could not be found.");
    await viewer.problem.getByRole('button', { name: 'Try again' }).click();
    await viewer.problem.waitFor();
    if (viewport === 'phone') await saveScreenshot(page, `viewer-error-${viewport}`);
    await page.keyboard.press('Escape');
    await viewer.dialog.waitFor({ state: 'hidden' });
    expect(unexpectedErrors(errors, [/Failed to load resource: the server responded with a status of 404/])).toEqual(
      [],
    );
    errors.length = 0;
  });
});
