// The grounded chat on the OpenAI-compatible driver, end to end: the real app on loopback,
// its own database with a known library, and a local peer speaking the real chat-completions
// streaming protocol (test-support/openai-peer.ts).
import { suggestionLabel } from '@fieldassist/client/chat-sources';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PEER_PNG, startOpenAiPeer, type OpenAiPeer } from '../../test-support/openai-peer.js';
import type { TestUser } from '../../test-support/users.js';
import { readSse, startChatApp, type SsePart } from './test-support/chat-app.js';

let peer: OpenAiPeer;
let chat: Awaited<ReturnType<typeof startChatApp>>;
let tech: TestUser;

beforeAll(async () => {
  peer = await startOpenAiPeer();
  chat = await startChatApp({ peer });
});
afterAll(() => peer.close());
beforeEach(async () => {
  peer.reset();
  tech = await chat.signUp('technician'); // a fresh user per test: its own history and rate limit
});

const QUESTION = 'The CP-200 shows error E42, what do I do?';

describe('POST /api/app/:projectId/chat with a model', () => {
  it('sends the model the retrieved passages with their manuals and pages, the question and the instructions', async () => {
    await readSse(await chat.ask(tech, { question: QUESTION }));
    const [sent] = peer.chatRequests();
    expect(sent).toMatchObject({ model: 'peer-model', max_tokens: 2000, stream: true });
    const [system, user] = sent!.messages as { role: string; content: string }[];
    expect(system!.role).toBe('system');
    // SPEC.md section 7: cite manual sections, step by step, concise and practical, flag general knowledge.
    expect(system!.content).toMatch(
      /Cite the manual section behind every step by its excerpt number in square brackets, as \[1\] or \[2\]/,
    );
    expect(system!.content).toMatch(/step-by-step/);
    expect(system!.content).toMatch(/concise and practical/);
    expect(system!.content).toMatch(/general knowledge/);
    expect(user!.role).toBe('user');
    expect(user!.content).toMatch(
      /^Manual excerpts:\n\n\[1\] CP-200 Centrifugal Pump Service Manual, page 2\nError code E42: the CP-200 lost its prime\./,
    );
    expect(user!.content.endsWith(`Question: ${QUESTION}`)).toBe(true);
    expect(user!.content).not.toContain('Plant Room System Planner'); // not among the best passages for this question
  });

  it('numbers the excerpts one per page as the sources are numbered, and drops a citation of an excerpt it was not given, also when split across chunks', async () => {
    peer.set({
      reply: 'Prime the casing [1]. Fit seal kit PN-4471-B [2] and torque the nut [2, 9]. Regrease the bearing [9].',
      chunkSize: 3,
    });
    const { text, sources } = await readSse(await chat.ask(tech, { question: QUESTION }));
    const prompt = (peer.chatRequests()[0]!.messages.at(-1) as { content: string }).content;
    const numbered = [...prompt.matchAll(/^\[(\d+)\] (.+), page (\d+)$/gm)].map((m) => ({
      n: Number(m[1]),
      title: m[2],
      page: Number(m[3]),
    }));
    expect(numbered.length).toBeGreaterThanOrEqual(2);
    expect(numbered.length).toBeLessThan(9);
    expect(numbered).toEqual(sources.map((s, i) => ({ n: i + 1, title: s.title, page: s.page })));
    expect(new Set(sources.map((s) => `${s.manualId}:${s.page}`)).size).toBe(sources.length);
    expect(sources[0]!.quote).toBe('Error code E42: the CP-200 lost its prime.');
    expect(text).toBe('Prime the casing [1]. Fit seal kit PN-4471-B [2] and torque the nut [2]. Regrease the bearing.');
    expect(JSON.parse((await chat.savedRows(tech))[0]!.response).content).toBe(text);
  });

  it('with nothing relevant in the manuals, says so first, suggests the closest pages, and has the model answer from general knowledge', async () => {
    const question = 'How do I replace the timing belt on the RC-50 delivery van?';
    peer.set({ reply: 'From general knowledge, not your manuals: slacken the tensioner first.' });
    const { text, sources, suggestions } = await readSse(await chat.ask(tech, { question }));
    const [sent] = peer.chatRequests();
    const user = (sent!.messages as { role: string; content: string }[]).at(-1)!;
    expect(user.content.startsWith(question)).toBe(true);
    expect(user.content).toMatch(
      /No manual in the library covers this, and the technician has been told so\. Answer from general knowledge and say that it is general knowledge/,
    );
    expect(user.content).not.toMatch(/Manual excerpts/);
    expect(
      text.startsWith(
        "I couldn't find this in your manuals.\n\n**Suggestions only, these may not answer your question:**",
      ),
    ).toBe(true);
    expect(text).toMatch(/^- RC-50 Rooftop Chiller Manual, page \d$/m);
    expect(text.endsWith('\n\nFrom general knowledge, not your manuals: slacken the tensioner first.')).toBe(true);
    expect(sources).toEqual([]);
    // The suggested pages the notice lists come as their own part, so the app can open each one.
    expect(suggestions[0]).toMatchObject({ manualId: 'manual_chiller', title: 'RC-50 Rooftop Chiller Manual' });
    expect(text.split('\n').filter((line) => line.startsWith('- '))).toEqual(
      suggestions.map((s) => `- ${suggestionLabel(s)}`),
    );
    expect(JSON.parse((await chat.savedRows(tech)).at(-1)!.response)).toEqual({
      content: text,
      sources: [],
      suggestions,
    });
  });

  it('relays the answer in the SSE parts of PLATFORM_API.md 5.2 as it comes, and saves the exchange once', async () => {
    const reply = 'Prime the casing (CP-200 Centrifugal Pump Service Manual, p. 2).';
    const pieces = reply.match(/\S+\s*/g)!; // the peer sends a word per chunk
    peer.set({ reply, chunkDelayMs: 80 });
    const startedAt = Date.now();
    const response = await chat.ask(tech, { question: QUESTION });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    let peerAtFirstDelta: { active: number; completed: number } | undefined;
    const { lines, parts, text } = await readSse(response, (part) => {
      if (!peerAtFirstDelta && part.type === 'text-delta')
        peerAtFirstDelta = { active: peer.activeStreams, completed: peer.completedStreams };
    });
    expect(peerAtFirstDelta).toEqual({ active: 1, completed: 0 }); // relayed while the peer was still writing

    expect(parts.map((p) => p.type)).toEqual([
      'start',
      'data-sources',
      'text-start',
      ...pieces.map(() => 'text-delta'),
      'text-end',
      'data-message',
      'finish',
    ]);
    // Word by word as the peer wrote it; a word's trailing space leaves with the next word (it waits to see whether a citation follows).
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.delta!.trim())).toEqual(
      pieces.map((p) => p.trim()),
    );
    expect(parts[1]!.data).toContainEqual({
      manualId: 'manual_pump',
      title: 'CP-200 Centrifugal Pump Service Manual',
      page: 2,
      fileUrl: expect.stringMatching(/manual_pump\.pdf$/),
      quote: expect.any(String),
    });
    expect(text).toBe(reply);
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { promptTokens: expect.any(Number), completionTokens: pieces.length, totalTokens: expect.any(Number) },
    });
    expect(lines.filter(Boolean).at(-1)).toBe('data: [DONE]');

    const rows = await chat.savedRows(tech);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.id).toBe((parts.find((p) => p.type === 'data-message')!.data as { id: string }).id);
    expect(row!.user_id).toBe(tech.id);
    expect(JSON.parse(row!.message)).toEqual({ content: QUESTION, imageUrl: null });
    expect(JSON.parse(row!.response)).toMatchObject({ content: text, sources: parts[1]!.data });
    expect(Number(row!.created_at)).toBeGreaterThanOrEqual(startedAt);
    expect(Number(row!.created_at)).toBeLessThanOrEqual(Date.now());
  });

  it('retries an upstream 429 and then answers', async () => {
    peer.failNext(1, { status: 429, retryAfter: 0 });
    const response = await chat.ask(tech, { question: QUESTION });
    expect(response.status).toBe(200);
    expect((await readSse(response)).text).toBe('Hello from the peer.');
    expect(peer.chatRequests()).toHaveLength(2);
    expect(await chat.savedRows(tech)).toHaveLength(1);
  });

  it('answers an upstream 500 that outlasts the retries with our error body, before any byte of a stream, and saves nothing', async () => {
    peer.failNext(3, { status: 500, retryAfter: 0, message: 'model overloaded' });
    const response = await chat.ask(tech, { question: QUESTION });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toContain('application/json');
    const message = 'The AI provider failed: HTTP 500: model overloaded';
    expect(await response.json()).toEqual({ error: message, message, code: 'AI_PROVIDER_ERROR' });
    expect(await chat.savedRows(tech)).toEqual([]);
  });

  it('turns a failure after the first text into an error part, and saves no half answer', async () => {
    peer.set({ reply: 'one two three four five', breakAfterChunks: 2, chunkDelayMs: 30 });
    const response = await chat.ask(tech, { question: QUESTION });
    expect(response.status).toBe(200);
    const { lines, parts, text } = await readSse(response);
    expect(text).toBe('one two ');
    expect(parts.at(-1)).toEqual({ type: 'error', errorText: expect.stringMatching(/^The AI provider failed: /) });
    expect(parts.some((p: SsePart) => p.type === 'data-message' || p.type === 'finish')).toBe(false);
    expect(lines.filter(Boolean).at(-1)).toBe('data: [DONE]');
    expect(await chat.savedRows(tech)).toEqual([]);
  });

  it('finishes and saves the answer of a client that disconnected mid-answer', async () => {
    const reply = 'Close the discharge valve, open the priming plug, fill the casing and restart the pump.';
    peer.set({ reply, chunkDelayMs: 60 });
    const controller = new AbortController();
    const response = await chat.ask(tech, { question: QUESTION }, controller.signal);
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"text-delta"')) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(peer.completedStreams).toBe(0); // it really left mid-answer

    await expect.poll(async () => (await chat.savedRows(tech)).length, { timeout: 5000, interval: 50 }).toBe(1);
    const [row] = await chat.savedRows(tech);
    expect(JSON.parse(row!.response).content).toBe(reply);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await chat.savedRows(tech)).toHaveLength(1);
  });
});

describe('a photo with the question', () => {
  it('reaches the model as an image part after the prompt, and is saved with the message', async () => {
    const imageUrl = await chat.upload(tech, PEER_PNG, 'png');
    const { text } = await readSse(await chat.ask(tech, { question: 'Is this seal worn?', imageUrl }));
    expect(text).toBe('Hello from the peer.');
    const content = peer.chatRequests()[0]!.messages[1]!.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    expect(content).toHaveLength(2);
    expect(content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(
        /Question: Is this seal worn\?\n\nThe technician attached a photo; no text could be read from it by OCR\.$/,
      ),
    });
    expect(content[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${PEER_PNG.toString('base64')}` },
    });
    expect(JSON.parse((await chat.savedRows(tech))[0]!.message)).toEqual({ content: 'Is this seal worn?', imageUrl });
  });

  it("marks a source whose page holds a figure, with the figure's region, as without a model", async () => {
    // Read from the passages' manuals while the prompt is made and the model asked.
    await chat.pool.query(
      `UPDATE manuals SET figure_pages = '{2}', figure_boxes = '{"2": [70, 337.5, 543, 490]}' WHERE id = 'manual_boiler'`,
    );
    try {
      const { sources } = await readSse(
        await chat.ask(tech, { question: 'GB-90 fault F28, the boiler will not ignite' }),
      );
      expect(sources[0]).toMatchObject({
        manualId: 'manual_boiler',
        page: 2,
        hasFigure: true,
        figureBox: [70, 337.5, 543, 490],
      });
      expect(sources.slice(1).some((s) => s.hasFigure)).toBe(false);
      expect(sources.length).toBeGreaterThan(1);
    } finally {
      await chat.pool.query("UPDATE manuals SET figure_pages = '{}', figure_boxes = '{}' WHERE id = 'manual_boiler'");
    }
  });

  it('refuses an imageUrl that is not an image stored here with 400, before asking the model', async () => {
    const notOurs = 'https://images.example.com/pump.png';
    const notAnImage = await chat.upload(tech, Buffer.from('Torque: 45 Nm'), 'txt');
    for (const imageUrl of [notOurs, notAnImage]) {
      const response = await chat.ask(tech, { question: 'What is this?', imageUrl });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'imageUrl must be an image uploaded to FieldAssist',
      });
    }
    expect(peer.chatRequests()).toEqual([]);
    expect(await chat.savedRows(tech)).toEqual([]);
  });
});
