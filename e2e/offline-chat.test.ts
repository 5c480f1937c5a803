// The chat offline (issue 18): the history stays readable with the network switched off, and
// a question asked offline is kept on the device (also across a reload), then asked and
// answered when the network returns, with a notice, once.
import { beforeAll, describe, expect, test } from 'vitest';

import { ChatPage } from './pages/chat-page.js';
import { saveScreenshot, unexpectedErrors } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { OFFLINE_NOISE, waitForServiceWorker } from './support/offline.js';
import { newServiceKey, seedManual } from './support/seed-manual.js';
import { openSignedIn } from './support/signed-in.js';

const SERVICE_KEY = newServiceKey();

const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY });

beforeAll(async () => {
  await seedManual({ serverUrl: server.url, serviceKey: SERVICE_KEY });
});

describe('the chat offline', () => {
  test('history readable offline; a question asked offline survives a reload and is answered on reconnect, once', async () => {
    const { page, context, errors, app } = await openSignedIn({
      browser,
      viewport: 'phone',
      serverUrl: server.url,
      label: 'offline-chat',
    });
    try {
      const chat = new ChatPage(page);
      await chat.sendUserMessage('What does fault E4 mean?');
      await chat.waitForAnswer();
      expect(await chat.lastAnswer().textContent()).toContain('compressor lockout');
      await waitForServiceWorker(page);
      const token = (await app.storedTokens())!.access_token;

      await context.setOffline(true);
      await page.reload();
      await app.waitUntilSignedIn();
      await chat.answers.first().waitFor();
      expect(await chat.questions.first().textContent()).toContain('What does fault E4 mean?');
      expect(await chat.answers.first().textContent()).toContain('compressor lockout');

      await chat.sendUserMessage('How long do I wait after resetting the breaker for E4?');
      const queued = page.getByTestId('queued-questions');
      await queued.waitFor();
      expect(await queued.textContent()).toContain(
        'Your question is saved on this phone and asked when the network returns.',
      );
      await page.reload();
      await app.waitUntilSignedIn();
      await queued.waitFor();
      expect(await chat.questions.last().textContent()).toContain('How long do I wait');
      expect(await chat.answers.count()).toBe(1);
      await saveScreenshot(page, 'offline-chat-queued-phone');

      await context.setOffline(false);
      await app.toast.filter({ hasText: 'Your question asked offline has been answered' }).waitFor({ timeout: 15_000 });
      await queued.waitFor({ state: 'detached' });
      expect(await chat.answers.count()).toBe(2);
      expect(await (await chat.waitForAnswer()).textContent()).toContain('wait five minutes');
      await saveScreenshot(page, 'offline-chat-answered-phone');

      // Saved on the server once: two exchanges, the second the question asked offline.
      const rows = (await (
        await fetch(`${server.url}/api/db/fieldassist/rest/v1/chat_messages?order=created_at.asc`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { message: string }[];
      expect(rows.map((row) => (JSON.parse(row.message) as { content: string }).content)).toEqual([
        'What does fault E4 mean?',
        'How long do I wait after resetting the breaker for E4?',
      ]);
      expect(unexpectedErrors(errors, OFFLINE_NOISE)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
