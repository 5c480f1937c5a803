// The grounded chat on the local provider (no AI_BASE_URL), and its refusals: the real app
// on loopback with its own database and a known library (test-support/chat-app.ts).
import { suggestionLabel } from '@fieldassist/client/chat-sources';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../auth/caller.js';
import type { TestUser } from '../../test-support/users.js';
import { LOCAL_ANSWER_NOTE } from './compose.js';
import { fileUrlOf, LIBRARY, PLANNER_ID, readSse, startChatApp } from './test-support/chat-app.js';

let chat: Awaited<ReturnType<typeof startChatApp>>;
beforeAll(async () => {
  chat = await startChatApp();
});

describe('POST /api/app/:projectId/chat without a model', () => {
  it('answers with the sentences of the best passage that carry the question, each page shown cited once, and one line saying no model wrote it', async () => {
    const user = await chat.signUp('viewer');
    const response = await chat.ask(user, { question: 'GB-90 fault F28, the boiler will not ignite' });
    expect(response.status).toBe(200);
    const { text, sources, parts } = await readSse(response);
    expect(text.startsWith(`${LIBRARY[1].pages[1]}\\\n*GB-90 Gas Boiler Installation Guide, page 2* [1]\n\n`)).toBe(
      true,
    );
    expect(text.endsWith(`\n\n${LOCAL_ANSWER_NOTE}`)).toBe(true);
    expect(text.match(/AI model/g)).toHaveLength(1);
    expect(sources[0]).toEqual({
      manualId: 'manual_boiler',
      title: 'GB-90 Gas Boiler Installation Guide',
      page: 2,
      fileUrl: fileUrlOf('manual_boiler'),
      quote: 'Fault F28: no ignition.',
    });
    // Every source is shown under its manual and page with its number, once; nothing else is cited.
    expect(new Set(sources.map((s) => `${s.manualId}:${s.page}`)).size).toBe(sources.length);
    sources.forEach((s, i) => {
      expect(text).toContain(
        i === 0 ? `*${s.title}, page ${s.page}* [1]` : `**${s.title}, page ${s.page}** [${i + 1}]`,
      );
      expect(text).toContain(s.quote);
    });
    expect([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))).toEqual(sources.map((_, i) => i + 1));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(parts.some((p) => p.type === 'data-suggestions')).toBe(false);

    const [row] = await chat.savedRows(user);
    expect(JSON.parse(row!.response)).toEqual({ content: text, sources });
  });
});

describe('a cited page that holds a figure', () => {
  it('is marked hasFigure, so the app shows a small image of it; a page without one is not', async () => {
    // As ingestion records it for a PDF page with a diagram or a ruled table (pdf-figures.ts).
    await chat.pool.query("UPDATE manuals SET figure_pages = '{2}' WHERE id = 'manual_boiler'");
    try {
      const user = await chat.signUp('technician');
      const { sources } = await readSse(
        await chat.ask(user, { question: 'GB-90 fault F28, the boiler will not ignite' }),
      );
      expect(sources[0]).toMatchObject({ manualId: 'manual_boiler', page: 2, hasFigure: true });
      // Ingested before figure_boxes: no region, so the app draws the whole page.
      expect(sources[0]).not.toHaveProperty('figureBox');
      expect(sources.slice(1).some((s) => s.hasFigure)).toBe(false);
      expect(sources.length).toBeGreaterThan(1);
    } finally {
      await chat.pool.query("UPDATE manuals SET figure_pages = '{}' WHERE id = 'manual_boiler'");
    }
  });

  it("carries the figure's region on the page, so the app draws only the figure", async () => {
    await chat.pool.query(
      `UPDATE manuals SET figure_pages = '{2}', figure_boxes = '{"2": [70, 337.5, 543, 490]}' WHERE id = 'manual_boiler'`,
    );
    try {
      const user = await chat.signUp('technician');
      const { sources } = await readSse(
        await chat.ask(user, { question: 'GB-90 fault F28, the boiler will not ignite' }),
      );
      expect(sources[0]).toMatchObject({ page: 2, hasFigure: true, figureBox: [70, 337.5, 543, 490] });
      expect(sources.slice(1).some((s) => s.figureBox)).toBe(false);
    } finally {
      await chat.pool.query("UPDATE manuals SET figure_pages = '{}', figure_boxes = '{}' WHERE id = 'manual_boiler'");
    }
  });
});

describe('a question the library does not cover', () => {
  it('begins "I couldn\'t find this in your manuals." and offers the closest pages, marked as suggestions, each a page the app can open, citing nothing', async () => {
    const user = await chat.signUp('technician');
    const { text, sources, suggestions, parts } = await readSse(
      await chat.ask(user, { question: 'How do I replace the timing belt on the RC-50 delivery van?' }),
    );
    expect(text.split('\n')[0]).toBe("I couldn't find this in your manuals.");
    expect(text).toMatch(/\*\*Suggestions only, these may not answer your question:\*\*/);
    expect(text).toMatch(/^- RC-50 Rooftop Chiller Manual, page \d$/m);
    // The part names the very pages the text lists, in its order, with what opens each one.
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions[0]).toEqual({
      manualId: 'manual_chiller',
      title: 'RC-50 Rooftop Chiller Manual',
      page: expect.any(Number),
      fileUrl: fileUrlOf('manual_chiller'),
      heading: '',
    });
    expect(text.split('\n').filter((line) => line.startsWith('- '))).toEqual(
      suggestions.map((s) => `- ${suggestionLabel(s)}`),
    );
    // Before the text, as the sources are; and never among the sources.
    const types = parts.map((p) => p.type);
    expect(types.indexOf('data-suggestions')).toBeLessThan(types.indexOf('text-delta'));
    expect(sources).toEqual([]);
    const [row] = await chat.savedRows(user);
    expect(JSON.parse(row!.response)).toEqual({ content: text, sources: [], suggestions });
  });

  it('says so plainly when no word of the question is in any manual, with no suggestions part', async () => {
    const user = await chat.signUp('viewer');
    const { text, sources, parts } = await readSse(
      await chat.ask(user, { question: 'Which grout suits a wet bathroom?' }),
    );
    expect(text).toBe("I couldn't find this in your manuals.");
    expect(sources).toEqual([]);
    expect(parts.some((p) => p.type === 'data-suggestions')).toBe(false);
  });

  it("never suggests a page of a manual the caller may not read: a viewer is not offered the system planner's page a technician is", async () => {
    const question = 'What torque for the wheel nuts of the delivery van behind the east door?';
    const offered = async (role: Role) => readSse(await chat.ask(await chat.signUp(role), { question }));
    const technician = await offered('technician');
    expect(technician.text.split('\n')[0]).toBe("I couldn't find this in your manuals.");
    expect(technician.suggestions.map((s) => s.manualId)).toContain(PLANNER_ID);
    const viewer = await offered('viewer');
    expect(viewer.text.split('\n')[0]).toBe("I couldn't find this in your manuals.");
    // Still offered the closest pages it may read: the planner's place is not left empty, it is not there.
    expect(viewer.suggestions.length).toBeGreaterThan(0);
    expect(viewer.suggestions.map((s) => s.manualId)).not.toContain(PLANNER_ID);
    expect(viewer.text).not.toContain('Plant Room System Planner');
  });
});

describe('refusals', () => {
  it('answers a signed-out caller 401 with no data', async () => {
    const response = await chat.ask(undefined, { question: 'GB-90 fault F28' });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({
      error: 'Authentication required',
      message: 'Authentication required',
      code: 'UNAUTHORIZED',
    });
    expect(body).not.toMatch(/GB-90|manual_/);
  });

  it('answers a blank question without a photo 400 VALIDATION_ERROR, naming the field', async () => {
    const user = await chat.signUp('technician');
    for (const body of [{ question: '   \n ' }, {}, { question: '' }]) {
      const response = await chat.ask(user, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'body.question: Ask a question or attach a photo',
        message: 'body.question: Ask a question or attach a photo',
        code: 'VALIDATION_ERROR',
      });
    }
    expect(await chat.savedRows(user)).toEqual([]);
  });

  const plannerQuestion = 'How do I isolate valve V-17 and which lockout tag before draining chiller RC-50?';
  const ask = async (role: Role) => readSse(await chat.ask(await chat.signUp(role), { question: plannerQuestion }));

  it.each(['viewer', 'manager'] as const)(
    'never gives the %s a passage or a source from a system planner',
    async (role) => {
      const { text, sources } = await ask(role);
      // Whether the chat answers from the pages this role may read or says it found nothing (and suggests
      // pages), the planner is never among them.
      expect(sources.every((s) => s.manualId !== PLANNER_ID)).toBe(true);
      expect(text).not.toContain('Plant Room System Planner');
      for (const page of LIBRARY[3].pages) expect(text).not.toContain(page.slice(0, 40));
      expect(text).not.toMatch(/V-17|LT-9|GV-2/);
    },
  );

  it.each(['technician', 'admin'] as const)('answers the %s with the system planner passage', async (role) => {
    const { text, sources } = await ask(role);
    expect(sources[0]).toMatchObject({
      manualId: PLANNER_ID,
      title: 'Plant Room System Planner',
      page: 1,
      fileUrl: fileUrlOf(PLANNER_ID),
    });
    expect(text.startsWith(`${LIBRARY[3].pages[0]}\\\n*Plant Room System Planner, page 1* [1]`)).toBe(true);
  });

  it("does not let another user read one's chat history through the REST API", async () => {
    const alice = await chat.signUp('technician');
    const bob = await chat.signUp('technician');
    await readSse(await chat.ask(alice, { question: 'CP-200 seal kit part number?' }));
    const list = (user: TestUser) =>
      fetch(`${chat.url}/api/db/${chat.projectId}/rest/v1/chat_messages?user_id=eq.${encodeURIComponent(alice.id)}`, {
        headers: user.headers,
      });
    const own = (await (await list(alice)).json()) as { user_id: string }[];
    expect(own).toHaveLength(1);
    const other = await list(bob);
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual([]);
  });
});
