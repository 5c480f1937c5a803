// The library answers when the page that answers is not the best candidate by score but is among the
// best three (rank.ts, answersQuestion and RELEVANCE_CANDIDATES): a page of a manual whose title holds
// the question's words ranks first (the title counts in the score, not in the page's coverage of the
// question), yet holds too little of the question to answer; the page that holds most of it ranks second.
import { randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';

import { saveScreenshot } from './support/browser.js';
import { startServerAndBrowser } from './support/server-and-browser.js';
import { openChatAsNewUser, seedReadyManual } from './support/seeded-chat.js';

const SERVICE_KEY = `e2e_${randomBytes(24).toString('hex')}`;
// Full text alone: without embeddings a page answers by the share of the question's terms it holds.
const { server, browser } = await startServerAndBrowser({ SIGNUP_MODE: 'open', SERVICE_KEY, EMBEDDINGS: 'off' });

const CARD = { id: 'manual_bp_card', title: 'Booster Pump Alarm Card', file: 'booster-card.pdf' };
const LOG = { id: 'manual_site_log', title: 'Site Service Log', file: 'site-log.pdf' };
const ANSWER = 'Dry running trips the unit; clear it by holding the reset key for five seconds.';

test('answers from the second candidate when the first holds too little of the question', async () => {
  const seeded = { url: server.url, serviceKey: SERVICE_KEY };
  await seedReadyManual(seeded, CARD, [{ page: 1, text: 'The alarm lamp on the pump lights red.' }]);
  await seedReadyManual(seeded, LOG, [
    { page: 4, text: ANSWER },
    { page: 5, text: 'The booster set was serviced in March.' },
  ]);
  const { page, context, errors, chat } = await openChatAsNewUser({
    browser,
    serverUrl: server.url,
    viewport: 'phone',
    displayName: 'Rita Ranked',
  });
  try {
    await chat.sendUserMessage('how do I clear the dry running alarm on the booster pump');
    const answer = await chat.waitForAnswer();
    const text = (await answer.textContent()) ?? '';
    expect(text).not.toContain("I couldn't find this in your manuals");
    // The answering page is shown and cited. The first by score still leads the answer (the composer
    // takes the passages in score order), so the card's page comes first.
    expect(text).toContain(ANSWER);
    expect((await chat.sourceLinks(answer).allTextContents()).map((s) => s.trim())).toEqual([
      `${CARD.title}, page 1`,
      `${LOG.title}, page 4`,
    ]);
    await saveScreenshot(page, 'answer-among-best-three-phone');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
