import type { Browser } from 'playwright-core';
import { expect } from 'vitest';

import { ChatPage } from '../pages/chat-page.js';
import { HostedAuthPage } from '../pages/hosted-auth-page.js';
import { GOOD_PASSWORD, uniqueEmail } from './accounts.js';
import { openPage, type ViewportName } from './browser.js';

/**
 * A ready manual written as ingestion would leave it, one chunk per given page (with the heading
 * of its section, if given), through the server's /batch with its service key. Its file is not
 * really stored unless `fileUrl` names one stored already: the ingestion job the insert queued is
 * closed at once.
 */
export async function seedReadyManual(
  server: { url: string; serviceKey: string },
  manual: { id: string; title: string; file: string; fileUrl?: string },
  pages: { page: number; text: string; heading?: string }[],
): Promise<void> {
  const statements = [
    {
      sql: 'INSERT INTO manuals (id, title, file_url, file_name, file_type, processing_status) VALUES (?, ?, ?, ?, ?, ?)',
      args: [
        manual.id,
        manual.title,
        manual.fileUrl ?? `${server.url}/files/manuals/${manual.file}`,
        manual.file,
        'application/pdf',
        'ready',
      ],
    },
    { sql: "UPDATE ingestion_jobs SET status = 'done' WHERE manual_id = ?", args: [manual.id] },
    ...pages.map(({ page, text, heading = '' }, i) => ({
      sql: 'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, heading) VALUES (?, ?, ?, ?, ?, ?)',
      args: [`${manual.id}_${i}`, manual.id, text, i, page, heading],
    })),
  ];
  const response = await fetch(`${server.url}/api/db/fieldassist/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.serviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ statements }),
  });
  if (!response.ok) throw new Error(`seeding the manual answered ${response.status}: ${await response.text()}`);
}

/** A new account signed up on the hosted page, left on the chat. */
export async function openChatAsNewUser({
  browser,
  serverUrl,
  viewport,
  displayName,
}: {
  browser: Browser;
  serverUrl: string;
  viewport: ViewportName;
  displayName: string;
}) {
  const opened = await openPage({ browser, viewport, url: HostedAuthPage.url(serverUrl) });
  await new HostedAuthPage(opened.page).signUp({ displayName, email: uniqueEmail('chat'), password: GOOD_PASSWORD });
  const chat = new ChatPage(opened.page);
  await chat.waitUntilReady();
  return { ...opened, chat };
}

/** A new user asks one question in the chat and gets its whole answer; the page is closed if that fails. */
export async function askAsNewUser(options: Parameters<typeof openChatAsNewUser>[0], question: string) {
  const opened = await openChatAsNewUser(options);
  try {
    await opened.chat.sendUserMessage(question);
    const answer = await opened.chat.waitForAnswer();
    expect(await answer.getAttribute('data-status')).toBe('done');
    return { ...opened, answer };
  } catch (error) {
    await opened.context.close();
    throw error;
  }
}
