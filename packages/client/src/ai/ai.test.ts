// `client.ai` against the real server, whose AI routes answer through a local
// OpenAI-compatible peer; and `client.ai.chat` against a recorded chat stream.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAiApp, storedFileUrl } from '../../../../apps/server/src/ai/test-support/ai-app.js';
import {
  PEER_TRANSCRIPT,
  startOpenAiPeer,
  type OpenAiPeer,
} from '../../../../apps/server/src/test-support/openai-peer.js';
import {
  createClient,
  FieldAssistAIError,
  FieldAssistAuthError,
  FieldAssistValidationError,
  type FetchLike,
} from '../index.js';

let peer: OpenAiPeer;
let server: Awaited<ReturnType<typeof startAiApp>>;
const sent: string[] = [];

beforeAll(async () => {
  peer = await startOpenAiPeer();
  server = await startAiApp({ peer });
});
afterAll(() => peer.close());
beforeEach(() => {
  peer.reset();
  sent.length = 0;
});

function clientFor(accessToken: string | null, fetchImpl: FetchLike = (input, init) => fetch(input, init)) {
  const recording: FetchLike = (input, init) => {
    sent.push(new URL(input).pathname);
    return fetchImpl(input, init);
  };
  return createClient({
    projectId: server.projectId,
    baseUrl: server.url,
    fetch: recording,
    getAccessToken: () => accessToken,
    auth: { mode: 'headless' },
  });
}

const ai = () => clientFor(server.user.accessToken).ai;

async function failure<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

describe('client.ai text', () => {
  it('streamText calls onChunk with each piece as it arrives and resolves with the whole answer', async () => {
    peer.set({ reply: 'Reset the breaker, then wait five minutes.', chunkDelayMs: 20 });
    const chunks: { delta: string; peerDone: number }[] = [];
    const result = await ai().streamText(
      { messages: [{ role: 'user', content: 'E4 fault?' }], model: 'gpt-4.1-mini', maxTokens: 2000 },
      (delta) => chunks.push({ delta, peerDone: peer.completedStreams }),
    );
    expect(chunks.map((c) => c.delta)).toEqual(['Reset ', 'the ', 'breaker, ', 'then ', 'wait ', 'five ', 'minutes.']);
    expect(chunks[0]!.peerDone).toBe(0);
    expect(result).toEqual({
      text: 'Reset the breaker, then wait five minutes.',
      finishReason: 'stop',
      usage: { promptTokens: 2, completionTokens: 7, totalTokens: 9 },
    });
    expect(sent).toEqual([`/api/ai/${server.projectId}/text`]);
  });

  it('generateText resolves with text, finish reason and usage', async () => {
    expect(await ai().generateText({ prompt: 'Hi', system: 'Be brief.' })).toEqual({
      text: 'Hello from the peer.',
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 },
    });
  });

  it('checks SPEC.md section 5 rules before sending anything', async () => {
    const client = ai();
    const cases: [Promise<unknown>, string][] = [
      [client.generateText({ prompt: '' }), 'Either prompt or messages is required'],
      [client.streamText({ messages: [] }, () => undefined), 'Either prompt or messages is required'],
      [
        client.streamText(
          { messages: [{ role: 'user', content: [{ type: 'image', image: 'http://x.example/a.png' }] }] },
          () => undefined,
        ),
        'Message validation failed: Message 0, content 0: Image URLs must use HTTPS protocol',
      ],
      [client.generateObject({ prompt: '', schema: { type: 'object' } }), 'Prompt is required'],
      [client.generateImage({ prompt: '' }), 'Prompt is required'],
      [
        client.modifyImage({ prompt: 'Fix', images: Array(51).fill('https://x.example/a.png') }),
        'Maximum 50 images allowed',
      ],
      [
        client.modifyImage({ prompt: 'Fix', images: ['https://x.example/a.tiff'] }),
        'Image 1: Image URL must end with a supported format',
      ],
      [client.modifyImage({ prompt: 'Fix', images: ['nope'] }), 'Image 1: Invalid URL format'],
      [client.generateSpeech({ text: '' }), 'Text is required'],
      [client.transcribeAudio({ audio: '' }), 'Audio is required'],
      [client.transcribeAudio({ audio: new Blob(['x']) as never }), 'Unsupported audio input type'],
    ];
    for (const [promise, message] of cases)
      expect((await failure(promise, FieldAssistValidationError)).message).toBe(message);
    expect(sent).toEqual([]);
  });

  it('an upstream failure is FieldAssistAIError with the server code and status', async () => {
    peer.failNext(3, { status: 500, retryAfter: 0, message: 'down' });
    const error = await failure(
      ai().streamText({ prompt: 'Hi' }, () => undefined),
      FieldAssistAIError,
    );
    expect(error).toMatchObject({
      code: 'AI_PROVIDER_ERROR',
      status: 502,
      message: 'The AI provider failed: HTTP 500: down',
      retryable: false,
    });
  });

  it('an upstream rate limit is retryable', async () => {
    peer.failNext(3, { status: 429, retryAfter: 0 });
    const error = await failure(ai().generateText({ prompt: 'Hi' }), FieldAssistAIError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryable: true });
  });

  it('a failure after the answer began rejects with STREAM_ERROR, after the chunks that came', async () => {
    peer.set({ reply: 'one two three four', breakAfterChunks: 2, chunkDelayMs: 30 });
    const chunks: string[] = [];
    const error = await failure(
      ai().streamText({ prompt: 'Hi' }, (d) => chunks.push(d)),
      FieldAssistAIError,
    );
    expect(chunks).toEqual(['one ', 'two ']);
    expect(error).toMatchObject({ code: 'STREAM_ERROR', details: { text: 'one two ' } });
  });

  it('signed out is FieldAssistAuthError', async () => {
    const error = await failure(
      clientFor(null).ai.streamText({ prompt: 'Hi' }, () => undefined),
      FieldAssistAuthError,
    );
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('a stale token is refreshed once and the stream request sent again', async () => {
    let refreshed = 0;
    const client = createClient({ projectId: server.projectId, baseUrl: server.url, auth: { mode: 'headless' } });
    Object.assign(client.auth, {
      getValidToken: async () => 'stale-token',
      forceRefresh: async () => (refreshed++, server.user.accessToken),
    });
    const result = await client.ai.streamText({ prompt: 'Hi' }, () => undefined);
    expect(result.text).toBe('Hello from the peer.');
    expect(refreshed).toBe(1);
  });
});

describe('client.ai objects and media', () => {
  const schema = {
    type: 'object',
    properties: { title: { type: 'string' }, technology: { type: 'string' }, datePublished: { type: 'string' } },
    required: ['title'],
  };

  it('generateObject and streamObject', async () => {
    peer.set({ object: { title: 'RTU', technology: 'HVAC', datePublished: '2020' } });
    expect((await ai().generateObject({ prompt: 'Extract', schema })).object).toEqual({
      title: 'RTU',
      technology: 'HVAC',
      datePublished: '2020',
    });
    const partials: unknown[] = [];
    const streamed = await ai().streamObject({ prompt: 'Extract', schema }, (p) => partials.push(p));
    expect(streamed).toEqual({
      object: { title: 'RTU', technology: 'HVAC', datePublished: '2020' },
      finishReason: 'stop',
    });
    expect(partials.at(-1)).toEqual(streamed.object);
  });

  it('a schema that is not an object is refused by the server with its text', async () => {
    const error = await failure(
      ai().generateObject({ prompt: 'List', schema: { type: 'array' } }),
      FieldAssistValidationError,
    );
    expect(error.message).toBe(`schema must be a JSON Schema of 'type: "object"', got 'type: "array"'`);
  });

  it('generateImage, generateSpeech and transcribeAudio', async () => {
    const images = await ai().generateImage({ prompt: 'A valve' });
    expect(images.data).toEqual([{ url: expect.stringMatching(storedFileUrl(/.+\.png/)) }]);
    const speech = await ai().generateSpeech({ text: 'Done', voice: 'echo', response_format: 'wav' });
    expect(speech).toEqual({
      url: expect.stringMatching(/\.wav$/),
      voice: 'echo',
      format: 'wav',
      mimeType: 'audio/wav',
    });
    const transcript = await ai().transcribeAudio({
      audio: new TextEncoder().encode('RIFF....WAVEfmt '),
      language: 'en',
    });
    expect(transcript).toMatchObject({ text: PEER_TRANSCRIPT, transcript: PEER_TRANSCRIPT, language: 'en' });
  });
});

describe('client.ai.chat', () => {
  const sources = [
    { manualId: 'manual_1', title: 'RTU manual', page: 12, fileUrl: 'https://files.example.com/rtu.pdf' },
  ];
  /** A chat stream with these parts before the text. */
  const chatStreamWith = (before: object[]) =>
    [
      { type: 'start', messageId: 'm' },
      ...before,
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'See page 12 ' },
      { type: 'text-delta', id: 't', delta: '[RTU manual].' },
      { type: 'text-end', id: 't' },
      { type: 'data-message', data: { id: 'msg_42' } },
      { type: 'finish', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } },
    ]
      .map((part) => `data: ${JSON.stringify(part)}\n\n`)
      .join('') + 'data: [DONE]\n\n';
  const chatStream = chatStreamWith([{ type: 'data-sources', data: sources }]);

  it('posts the question, reports sources before the text, and resolves with the saved message id', async () => {
    const requests: { url: string; body: unknown }[] = [];
    const fakeFetch: FetchLike = async (url, init) => {
      requests.push({ url, body: JSON.parse(init.body as string) });
      return new Response(chatStream, { headers: { 'content-type': 'text/event-stream' } });
    };
    const events: string[] = [];
    const result = await clientFor('token', fakeFetch).ai.chat(
      { question: 'Why is the RTU noisy?', imageUrl: 'https://files.example.com/p.jpg' },
      { onSources: (s) => events.push(`sources:${s.length}`), onChunk: (d) => events.push(d) },
    );
    expect(requests).toEqual([
      {
        url: `${server.url}/api/app/${server.projectId}/chat`,
        body: { question: 'Why is the RTU noisy?', imageUrl: 'https://files.example.com/p.jpg' },
      },
    ]);
    expect(events).toEqual(['sources:1', 'See page 12 ', '[RTU manual].']);
    expect(result).toEqual({
      text: 'See page 12 [RTU manual].',
      sources,
      suggestions: [],
      messageId: 'msg_42',
      finishReason: 'stop',
      usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    });
  });

  it('sends the corrected photo text and reports what was read from the photo before the text', async () => {
    const photo = {
      text: 'MODEL XR-200\nERROR E4',
      identifiers: [
        { kind: 'model', value: 'XR-200' },
        { kind: 'error', value: 'E4' },
      ],
      manual: { manualId: 'manual_1', title: 'RTU manual' },
    };
    const stream = chatStream.replace(
      'data: {"type":"data-sources"',
      `data: ${JSON.stringify({ type: 'data-photo', data: photo })}\n\ndata: {"type":"data-sources"`,
    );
    const bodies: unknown[] = [];
    const fakeFetch: FetchLike = async (_url, init) => {
      bodies.push(JSON.parse(init.body as string));
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    };
    const events: string[] = [];
    const result = await clientFor('token', fakeFetch).ai.chat(
      { question: 'Fix?', imageUrl: 'https://files.example.com/p.jpg', photoText: 'MODEL XR-200\nERROR E4' },
      {
        onPhoto: (p) => events.push(`photo:${p.manual?.title}`),
        onSources: () => events.push('sources'),
        onChunk: (d) => events.push(d),
      },
    );
    expect(bodies).toEqual([
      { question: 'Fix?', imageUrl: 'https://files.example.com/p.jpg', photoText: 'MODEL XR-200\nERROR E4' },
    ]);
    expect(events.slice(0, 2)).toEqual(['photo:RTU manual', 'sources']);
    expect(result.photo).toEqual(photo);
  });

  it('reports the suggested pages of an answer the manuals do not hold before its text, apart from its sources', async () => {
    const suggestions = [{ ...sources[0]!, heading: 'Belts' }];
    const stream = chatStreamWith([
      { type: 'data-sources', data: [] },
      { type: 'data-suggestions', data: suggestions },
    ]);
    const fakeFetch: FetchLike = async () => new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    const events: string[] = [];
    const result = await clientFor('token', fakeFetch).ai.chat(
      { question: 'Timing belt?' },
      {
        onSources: (s) => events.push(`sources:${s.length}`),
        onSuggestions: (s) => events.push(`suggestions:${s.length}`),
        onChunk: (d) => events.push(d),
      },
    );
    expect(events.slice(0, 3)).toEqual(['sources:0', 'suggestions:1', 'See page 12 ']);
    expect(result).toMatchObject({ sources: [], suggestions });
  });

  it('a refusal before the stream is the server error', async () => {
    const fakeFetch: FetchLike = async () =>
      new Response(
        JSON.stringify({
          error: 'Too many attempts. Please wait a moment and try again.',
          message: 'Too many attempts. Please wait a moment and try again.',
          code: 'RATE_LIMITED',
        }),
        {
          status: 429,
          headers: { 'content-type': 'application/json' },
        },
      );
    const error = await failure(clientFor('token', fakeFetch).ai.chat({ question: 'Hi' }), FieldAssistAIError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryable: true });
  });
});
