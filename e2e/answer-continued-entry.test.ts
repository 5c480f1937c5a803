// An option's entry that runs over a page break (issue 16): the page that answers goes on with the
// "-U memtype:op:filename[:format]" entry begun on the page before and never names the option, so
// ingestion gives its chunk the entry's head in its heading and the composed answer (no AI model)
// names the option in its lead, keeps the lead that ends in ":" with the list it introduces (the page's label
// under the list), answers a question that types the option from its entry, not from the next one, and leads
// with the row that answers when the list has no line of page 2 to introduce it. A real two-page PDF is
// uploaded and ingested by the real server, and the live chat answers from page 2, read in real Chromium at
// phone and desktop width.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';

import { makePdf } from '../apps/server/src/data/fixtures/make-documents.js';
import { ManualViewer } from './pages/manual-viewer.js';
import { saveScreenshot, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { askAsNewUser } from './support/seeded-chat.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { serviceApi } from './support/viewer-library.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const MANUAL = { id: 'manual_xp200', title: 'XP-200 Programmer User Manual', file: 'xp-200.pdf' };
const OPTION = '-U memtype:op:filename[:format]';
const OPS_INTRO = 'The op field specifies what operation to perform:';
const OPS = [
  'r read the specified memory of the part and write it to the specified file',
  'w read the specified file and write it to the specified memory of the part',
  'v read the specified memory of the part and the specified file and compare them (verify)',
];
// An option list as a manual prints it ('' is a blank line between entries): the -U entry starts at
// the foot of page 1 with its long description and the first memory types; page 2 goes on with the
// rest of them and the operations, then the next entry.
const PAGES = [
  [
    'XP-200 In-System Programmer',
    '',
    '2.1 Option Descriptions',
    '',
    '-c programmer-id Use the pin configuration of the named programmer. The XP-200 knows its own',
    'programmer, the xp200, and most serial and USB programmers sold for these parts.',
    '',
    '-p partno This option tells the XP-200 which part is connected to the programmer. It is required',
    'for every operation except listing the known parts with -p ?.',
    '',
    OPTION,
    '',
    'Perform a memory operation on the part. The memtype field names the memory to work on; which',
    'memories a part has depends on the part. The memory types most parts know are the following:',
    '',
    'calibration One or more bytes of oscillator calibration data.',
    'eeprom The EEPROM of the part.',
    'efuse The extended fuse byte.',
    'flash The flash memory of the part.',
    'fuse The fuse byte of a part with a single fuse byte.',
  ],
  [
    'hfuse The high fuse byte.',
    'lfuse The low fuse byte.',
    'lock The lock byte.',
    'signature The three signature bytes of the part (its device ID).',
    '',
    OPS_INTRO,
    ...OPS,
    '',
    'The filename field names the file to read or write. The format field tells how the file is',
    'written: i for Intel Hex, s for Motorola S-record, r for raw binary; a file is read in any of them.',
    '',
    '-v Enable verbose output. More -v options make the XP-200 print more of what it does.',
  ],
];

// Full text alone, as the other composed-answer tests: this file is about the answer's form.
const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY, EMBEDDINGS: 'off' });
let fileUrl = '';
const ask = (viewport: ViewportName, question: string) =>
  askAsNewUser({ browser, serverUrl: server.url, viewport, displayName: 'Otto Option' }, question);

beforeAll(async () => {
  const api = serviceApi(server.url, SERVICE_KEY);
  fileUrl = await api.store(MANUAL.file, 'application/pdf', await makePdf(PAGES));
  await api.insert('manuals', {
    id: MANUAL.id,
    title: MANUAL.title,
    file_url: fileUrl,
    file_name: MANUAL.file,
    file_type: 'application/pdf',
  });
  await api.waitUntilReady(MANUAL.id, 60);
});

describe.each(VIEWPORT_NAMES)('an answer from the page an option entry runs on to, on %s', (viewport: ViewportName) => {
  test('its lead names the option as code and keeps the operations under it on their own lines, then cites page 2', async () => {
    const { page, context, errors, chat, answer } = await ask(viewport, 'how do I verify the memory against a file');
    try {
      // The lead opens with the option page 2 never names, monospaced, then the sentence that answers.
      const lead = answer.locator('p').first();
      const opening = `${OPTION}: ${OPS_INTRO}`;
      expect((await lead.textContent())?.slice(0, opening.length)).toBe(opening);
      const option = lead.locator('code').first();
      expect(await option.textContent()).toBe(OPTION);
      expect(await lead.evaluate((el) => el.firstElementChild?.tagName)).toBe('CODE');
      expect(await option.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
      // On one line, not broken inside the option where a technician would type it.
      expect(await option.evaluate((el) => el.getClientRects().length)).toBe(1);

      // The operations as printed, each on a line of its own, in the page's order.
      const ops = answer.locator('ul > li');
      expect(await ops.allTextContents()).toEqual(OPS);
      const tops = await ops.evaluateAll((items) => items.map((li) => li.getBoundingClientRect().top));
      expect(tops).toEqual([...tops].sort((a, b) => a - b));
      expect(new Set(tops).size).toBe(OPS.length);

      // Cited: page 2, the continuation, not page 1 where the entry starts.
      const citation = answer.getByRole('link', { name: `Source 1: ${MANUAL.title}, page 2` });
      expect(await citation.getAttribute('href')).toBe(`${fileUrl}#page=2`);
      expect(await chat.sourceLinks(answer).first().textContent()).toBe(`${MANUAL.title}, page 2`);
      // The page's label under the operations the lead introduces, not between them, with its citation on the
      // same line (alone on the next line, the pill read as a number), and on the first screen.
      expect(await lead.locator('em').count()).toBe(0);
      const label = answer.locator('em').first();
      expect((await label.textContent())?.replaceAll('\u00a0', ' ')).toBe(`${MANUAL.title}, page 2`);
      const lastOp = await ops.last().evaluate((li) => li.getBoundingClientRect().bottom);
      expect(await label.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThan(lastOp);
      const middle = (el: Element) => {
        const box = [...el.getClientRects()].at(-1)!;
        return (box.top + box.bottom) / 2;
      };
      const pill = await citation.locator('span').evaluate(middle);
      expect(Math.abs(pill - (await label.evaluate(middle)))).toBeLessThan(8);

      await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      expect(await citation.evaluate((el) => el.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
      await saveScreenshot(page, `answer-continued-entry-${viewport}`);

      // The citation opens page 2 in the viewer with the lead's sentence marked on it.
      await citation.click();
      const viewer = new ManualViewer(page);
      await viewer.waitForPage(2);
      expect(await viewer.markedText()).toBe(OPS_INTRO);
      await page.keyboard.press('Escape');
      await viewer.dialog.waitFor({ state: 'hidden' });

      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a question that types the option is answered from the option's entry, one about a row by that row", async () => {
    // From the -U entry (its head on page 1 leads, the ranking's own-entry rule), not from the entries around it
    // that share a word of the question ("-p partno ... every operation ...", "More -v options make ...").
    const { context, errors, chat, answer: operations } = await ask(viewport, 'which operations can the -U option do');
    try {
      const text = (await operations.textContent()) ?? '';
      expect(text).toContain('Perform a memory operation on the part.');
      expect(text).not.toContain('This option tells');
      expect(text).not.toContain('More -v options');

      // The memory types go on from page 1 with no line of page 2 to introduce them: the row that answers leads.
      await chat.sendUserMessage('how do I read the high fuse byte');
      await chat.answers.nth(1).waitFor();
      const fuse = await chat.waitForAnswer();
      expect(await fuse.getAttribute('data-status')).toBe('done');
      const lead = fuse.locator('p').first();
      expect(await lead.textContent()).toMatch(/^-U memtype:op:filename\[:format\]: hfuse The high fuse byte\./);
      expect(await lead.locator('em').textContent()).toMatch(/page\s2$/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a lead from further into its numbered section is named by the section, bold, on the line above', async () => {
    // From the -p entry, the second paragraph under "2.1 Option Descriptions": without the heading the answer
    // would not say that it is an option of the programmer's command line.
    const { page, context, errors, answer } = await ask(viewport, 'how do I get the list of the known parts');
    try {
      const lead = answer.locator('p').first();
      const section = lead.locator('strong').first();
      expect(await section.textContent()).toBe('2.1 Option Descriptions');
      expect(await lead.evaluate((el) => el.firstElementChild?.tagName)).toBe('STRONG');
      // On a line of its own, above the sentence that answers, which names its option as code.
      const [heading, answering] = await Promise.all([
        section.evaluate((el) => el.getBoundingClientRect().bottom),
        lead
          .locator('code')
          .first()
          .evaluate((el) => el.getBoundingClientRect().top),
      ]);
      expect(answering).toBeGreaterThanOrEqual(heading - 1);
      expect(await lead.locator('code').first().textContent()).toBe('-p partno');
      expect(await lead.textContent()).toContain('listing the known parts with -p ?.');
      expect(await lead.locator('em').textContent()).toMatch(/page\s1$/);
      await answer.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await saveScreenshot(page, `answer-section-heading-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
