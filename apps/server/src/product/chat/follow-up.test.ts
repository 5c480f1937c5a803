// Follow-up questions answered in the context of the exchange before, on the real app and
// database: retrieval takes the earlier question's words and manual, and a model gets the turns.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAiPeer, type OpenAiPeer } from '../../test-support/openai-peer.js';
import { FOLLOW_UP_WINDOW_MS, isFollowUp } from './follow-up.js';
import { fileUrlOf, readSse, startChatApp } from './test-support/chat-app.js';

const CONTROLLER = 'manual_lx5';
const SENSOR = 'manual_ds2';

/** Two manuals that both speak of a "4 second" signal: only the earlier question says which. */
async function seedSignals(pool: pg.Pool) {
  const manuals = [
    {
      id: CONTROLLER,
      title: 'LX-5 Controller Guide',
      pages: [
        'Status LED of the LX-5 controller. A 2 second blink of the status LED means the controller is waiting for a network address.',
        'A 4 second blink of the status LED means the firmware update failed; hold RESET for ten seconds to restore the previous firmware.',
      ],
    },
    {
      id: SENSOR,
      title: 'DS-2 Door Sensor Guide',
      pages: [
        'A 4 second beep means the door sensor battery is low. A 4 second tone repeated every minute means the 4 second timer of the sensor expired.',
      ],
    },
  ];
  for (const manual of manuals) {
    await pool.query(
      'INSERT INTO manuals (id, title, file_url, file_name, document_type) VALUES ($1, $2, $3, $4, $5)',
      [manual.id, manual.title, fileUrlOf(manual.id), `${manual.id}.pdf`, 'manual'],
    );
    for (const [i, text] of manual.pages.entries()) {
      await pool.query(
        'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
        [`${manual.id}_${i}`, manual.id, text, i, i + 1],
      );
    }
  }
}

const FIRST = 'What does a 2 second blink of the LX-5 status LED mean?';
const FOLLOW_UP = 'what about the 4 second one?';

describe('isFollowUp', () => {
  it.each([FOLLOW_UP, 'and that?', 'does it also apply to the CP-200?', 'why?', 'fuses?'])(
    'takes "%s" as a follow-up',
    (question) => expect(isFollowUp(question)).toBe(true),
  );
  it.each([FIRST, 'How do I replace the mechanical seal of the CP-200 pump?', 'How do I read the fuses?'])(
    'takes "%s" as a question of its own',
    (question) => expect(isFollowUp(question)).toBe(false),
  );
});

describe('a follow-up without a model', () => {
  let chat: Awaited<ReturnType<typeof startChatApp>>;
  beforeAll(async () => {
    chat = await startChatApp();
    await seedSignals(chat.pool);
  });

  it('is answered from the manual and the subject of the question before', async () => {
    const user = await chat.signUp('technician');
    const first = await readSse(await chat.ask(user, { question: FIRST }));
    expect(first.sources[0]).toMatchObject({ manualId: CONTROLLER, page: 1 });
    const { text, sources } = await readSse(await chat.ask(user, { question: FOLLOW_UP }));
    expect(sources[0]).toMatchObject({ manualId: CONTROLLER, page: 2 });
    expect(text).toMatch(/^A 4 second blink of the status LED means the firmware update failed/);
  });

  it("is asked alone when the exchange before is older than the window, or another user's", async () => {
    const user = await chat.signUp('technician');
    const other = await chat.signUp('technician');
    await readSse(await chat.ask(other, { question: FIRST }));
    await chat.pool.query(
      'INSERT INTO chat_messages (id, user_id, message, response, created_at) VALUES ($1, $2, $3, $4, $5)',
      [
        `old-${user.id}`,
        user.id,
        JSON.stringify({ content: FIRST }),
        JSON.stringify({ content: 'earlier', sources: [{ manualId: CONTROLLER }] }),
        Date.now() - FOLLOW_UP_WINDOW_MS - 60_000,
      ],
    );
    const { sources } = await readSse(await chat.ask(user, { question: FOLLOW_UP }));
    expect(sources[0]).toMatchObject({ manualId: SENSOR });
  });
});

describe('a follow-up with a model', () => {
  let peer: OpenAiPeer;
  let chat: Awaited<ReturnType<typeof startChatApp>>;
  beforeAll(async () => {
    peer = await startOpenAiPeer();
    chat = await startChatApp({ peer });
    await seedSignals(chat.pool);
  });
  afterAll(() => peer.close());

  it('sends the model the recent turns before the new question, with the pages of the manual asked about first', async () => {
    const user = await chat.signUp('technician');
    peer.set({ reply: 'The controller waits for a network address [1].' });
    await readSse(await chat.ask(user, { question: FIRST }));
    peer.set({ reply: 'The firmware update failed [1].' });
    const { sources } = await readSse(await chat.ask(user, { question: FOLLOW_UP }));
    const messages = peer.chatRequests().at(-1)!.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]!.content).toBe(FIRST);
    expect(messages[2]!.content).toBe('The controller waits for a network address [1].');
    expect(messages[3]!.content).toMatch(/^Manual excerpts:\n\n\[1\] LX-5 Controller Guide, page 2\nA 4 second blink/);
    expect(messages[3]!.content.endsWith(`Question: ${FOLLOW_UP}`)).toBe(true);
    expect(sources[0]).toMatchObject({ manualId: CONTROLLER, page: 2 });
  });
});
