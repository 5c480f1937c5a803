// The published platform client (@blinkdotnew/sdk 2.9.0) against our AI routes: its stream
// reader gets every chunk (PLATFORM_API.md 5.2), its object stream the bare JSON (5.4), and
// its media calls the shapes they read (5.5 to 5.7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlinkClient, blinkClientFor } from '../test-support/blink-client.js';
import { PEER_TRANSCRIPT, startOpenAiPeer, type OpenAiPeer } from '../test-support/openai-peer.js';
import { TEST_PASSWORD } from '../test-support/users.js';
import { startAiApp } from './test-support/ai-app.js';

let peer: OpenAiPeer;
let blink: BlinkClient;

beforeAll(async () => {
  peer = await startOpenAiPeer();
  const server = await startAiApp({ peer });
  blink = blinkClientFor(server);
  await blink.auth.signInWithEmail(server.user.email, TEST_PASSWORD);
});
afterAll(() => peer.close());

describe('@blinkdotnew/sdk ai against FieldAssist', () => {
  it('streamText gets each chunk, the finish reason and the usage', async () => {
    peer.set({ reply: 'Check the fuse.' });
    const chunks: string[] = [];
    const result = await blink.ai.streamText(
      { prompt: 'Unit dead?', model: 'gpt-4.1-mini', maxTokens: 2000 },
      (chunk) => chunks.push(chunk),
    );
    expect(chunks).toEqual(['Check ', 'the ', 'fuse.']);
    expect(result).toMatchObject({
      text: 'Check the fuse.',
      finishReason: 'stop',
      usage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 },
    });
  });

  it('generateText, generateObject and streamObject', async () => {
    peer.set({ reply: 'Yes.', object: { title: 'T', technology: 'Pumps', datePublished: 'Unknown' } });
    expect((await blink.ai.generateText({ prompt: 'Ok?' })).text).toBe('Yes.');
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, technology: { type: 'string' }, datePublished: { type: 'string' } },
      required: ['title'],
    };
    expect((await blink.ai.generateObject({ prompt: 'Extract', schema })).object).toEqual({
      title: 'T',
      technology: 'Pumps',
      datePublished: 'Unknown',
    });
    expect((await blink.ai.streamObject({ prompt: 'Extract', schema }, () => undefined)).object).toEqual({
      title: 'T',
      technology: 'Pumps',
      datePublished: 'Unknown',
    });
  });

  it('generateImage, generateSpeech and transcribeAudio', async () => {
    expect((await blink.ai.generateImage({ prompt: 'A pump' })).data).toEqual([
      { url: expect.stringMatching(/\.png$/) },
    ]);
    expect(await blink.ai.generateSpeech({ text: 'Done' })).toMatchObject({
      url: expect.stringMatching(/\.mp3$/),
      voice: 'alloy',
      format: 'mp3',
      mimeType: 'audio/mpeg',
    });
    expect((await blink.ai.transcribeAudio({ audio: new Uint8Array(Buffer.from('RIFF....WAVEfmt ')) })).text).toBe(
      PEER_TRANSCRIPT,
    );
  });

  it('an upstream failure reaches the app as an error with our code, not as an empty answer', async () => {
    peer.failNext(3, { status: 500, retryAfter: 0 });
    await expect(blink.ai.streamText({ prompt: 'Hi' }, () => undefined)).rejects.toMatchObject({
      code: 'AI_PROVIDER_ERROR',
    });
  });
});
