// The AI routes on the OpenAI-compatible driver, against a local peer speaking the real
// chat completions protocol (test-support/openai-peer.ts), through real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { PEER_PNG, PEER_TRANSCRIPT, startOpenAiPeer, type OpenAiPeer } from '../test-support/openai-peer.js';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';
import { startAiApp, storedFileUrl } from './test-support/ai-app.js';
import { dataParts, readSseLines } from '../test-support/sse.js';

let peer: OpenAiPeer;
let server: Awaited<ReturnType<typeof startAiApp>>;

beforeAll(async () => {
  peer = await startOpenAiPeer();
  server = await startAiApp({ peer, maxOutputTokens: 2000 });
});
afterAll(() => peer.close());
beforeEach(() => peer.reset());

function post(route: string, body: unknown, headers: Record<string, string> = server.user.headers) {
  return fetch(`${server.url}/api/ai/${server.projectId}/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('POST /api/ai/:projectId/text, streamed', () => {
  it('relays the answer in the UI message stream framing, chunk by chunk as the peer sends it', async () => {
    peer.set({ reply: 'Check the condenser fan first.', chunkDelayMs: 120 });
    const response = await post('text', {
      prompt: '',
      messages: [{ role: 'user', content: 'Why is the unit noisy?' }],
      stream: true,
      model: 'gpt-4.1-mini',
      maxTokens: 2000,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');

    let peerStateAtFirstDelta: { active: number; completed: number } | undefined;
    const lines = await readSseLines(response, (line) => {
      if (!peerStateAtFirstDelta && line.includes('"text-delta"'))
        peerStateAtFirstDelta = { active: peer.activeStreams, completed: peer.completedStreams };
    });
    // The first delta reached us while the peer was still writing the rest.
    expect(peerStateAtFirstDelta).toEqual({ active: 1, completed: 0 });

    const frames = lines.filter((l) => l !== '');
    expect(lines.join('\n').endsWith('data: [DONE]\n')).toBe(true);
    const parts = dataParts(lines);
    expect(parts[0]).toEqual({ type: 'start', messageId: expect.any(String) });
    expect(parts[1]).toEqual({ type: 'text-start', id: 'text-0' });
    expect(parts.filter((p) => p.type === 'text-delta')).toEqual(
      ['Check ', 'the ', 'condenser ', 'fan ', 'first.'].map((delta) => ({ type: 'text-delta', id: 'text-0', delta })),
    );
    expect(parts.at(-2)).toEqual({ type: 'text-end', id: 'text-0' });
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { promptTokens: 5, completionTokens: 5, totalTokens: 10 },
    });
    expect(frames.at(-1)).toBe('data: [DONE]');
    // Every frame is one `data: ` line followed by a blank line.
    expect(lines.filter((l, i) => l.startsWith('data: ') && lines[i + 1] !== '')).toEqual([]);
  });

  it('sends the server model, the capped output limit and the prompt the client wrote', async () => {
    const response = await post('text', {
      system: 'You help technicians.',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Reset code E4?' },
        { role: 'assistant', content: 'Which unit?' },
        { role: 'user', content: 'RTU-7' },
      ],
      stream: true,
      model: 'gpt-4.1-mini',
      maxTokens: 50_000,
      temperature: 0.2,
    });
    await readSseLines(response);
    const [sent] = peer.chatRequests();
    expect(sent).toMatchObject({
      model: 'peer-model',
      max_tokens: 2000,
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(sent!.messages).toEqual([
      { role: 'system', content: 'You help technicians.\n\nBe brief.' },
      { role: 'user', content: 'Reset code E4?' },
      { role: 'assistant', content: 'Which unit?' },
      { role: 'user', content: 'RTU-7' },
    ]);
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer peer-key');
  });

  it('downloads message images on the server and sends the model their bytes', async () => {
    server.downloads.set('https://files.example.com/unit/photo.png', { bytes: PEER_PNG, contentType: 'image/png' });
    const content = [
      { type: 'text', text: 'What is this part?' },
      { type: 'image', image: 'https://files.example.com/unit/photo.png' },
    ];
    const response = await post('text', { messages: [{ role: 'user', content }], stream: false });
    expect(response.status).toBe(200);
    expect(peer.chatRequests()[0]!.messages[0]!.content).toEqual([
      { type: 'text', text: 'What is this part?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PEER_PNG.toString('base64')}` } },
    ]);
  });

  it('retries an upstream 429 (honouring Retry-After) and then answers', async () => {
    peer.failNext(1, { status: 429, retryAfter: 0 });
    const response = await post('text', { prompt: 'Hi', stream: true });
    expect(response.status).toBe(200);
    expect(
      dataParts(await readSseLines(response))
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.delta)
        .join(''),
    ).toBe('Hello from the peer.');
    expect(peer.chatRequests()).toHaveLength(2);
  });

  it('answers an upstream 500 that outlasts the retries with a clean 502, before opening the stream', async () => {
    peer.failNext(3, { status: 500, retryAfter: 0, message: 'model overloaded' });
    const response = await post('text', { prompt: 'Hi', stream: true });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({
      error: 'The AI provider failed: HTTP 500: model overloaded',
      message: 'The AI provider failed: HTTP 500: model overloaded',
      code: 'AI_PROVIDER_ERROR',
    });
    expect(peer.chatRequests()).toHaveLength(3);
  });

  it('never passes an upstream 401 on as ours (the client would refresh its session)', async () => {
    peer.failNext(1, { status: 401, message: 'Incorrect API key provided: sk-****' });
    const response = await post('text', { prompt: 'Hi', stream: false });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toBe(
      "The AI provider failed: it refused the server's credentials (HTTP 401)",
    );
  });

  it('an upstream rate limit that outlasts the retries is our 429 RATE_LIMITED', async () => {
    peer.failNext(3, { status: 429, retryAfter: 0 });
    const response = await post('text', { prompt: 'Hi', stream: false });
    expect(response.status).toBe(429);
    expect((await response.json()).code).toBe('RATE_LIMITED');
  });

  it('a failure after the stream opened becomes an error part, then the stream ends', async () => {
    peer.set({ reply: 'one two three four five', breakAfterChunks: 2, chunkDelayMs: 50 });
    const response = await post('text', { prompt: 'Hi', stream: true });
    expect(response.status).toBe(200);
    const lines = await readSseLines(response);
    const parts = dataParts(lines);
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.delta)).toEqual(['one ', 'two ']);
    expect(parts.at(-1)).toEqual({ type: 'error', errorText: expect.stringMatching(/^The AI provider failed: /) });
    expect(lines.filter(Boolean).at(-1)).toBe('data: [DONE]');
  });
});

describe('a client that goes away', () => {
  it('stops the upstream call with it', async () => {
    peer.set({ reply: 'one two three four five six seven eight', chunkDelayMs: 150 });
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/ai/${server.projectId}/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...server.user.headers },
      body: JSON.stringify({ prompt: 'Hi', stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"text-delta"')) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await expect.poll(() => peer.activeStreams, { timeout: 1000 }).toBe(0);
    expect(peer.completedStreams).toBe(0);
  });
});

describe('POST /api/ai/:projectId/text, whole', () => {
  it('answers {text, finishReason, usage}', async () => {
    peer.set({ reply: 'Bleed the radiator.' });
    const response = await post('text', { prompt: 'Cold radiator?', stream: false });
    expect(await response.json()).toEqual({
      text: 'Bleed the radiator.',
      finishReason: 'stop',
      usage: { promptTokens: 2, completionTokens: 3, totalTokens: 5 },
    });
  });
});

describe('the driver on its own', () => {
  const provider = (timeoutMs: number) =>
    createOpenAiCompatibleProvider({
      baseUrl: peer.baseUrl,
      model: 'peer-model',
      imageModel: 'i',
      speechModel: 's',
      transcribeModel: 't',
      timeoutMs,
      maxOutputTokens: 100,
      saveGeneratedFile: async () => 'unused',
      downloadFile: async () => {
        throw new Error('no download expected');
      },
    });

  it('sends an inline data: URL image as it is, downloading nothing', async () => {
    const image = `data:image/png;base64,${PEER_PNG.toString('base64')}`;
    await provider(5000).generateText({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Photo' },
            { type: 'image', image },
          ],
        },
      ],
      maxTokens: 10,
    });
    expect(peer.chatRequests()[0]!.messages[0]!.content).toEqual([
      { type: 'text', text: 'Photo' },
      { type: 'image_url', image_url: { url: image } },
    ]);
  });

  it('gives up on a silent upstream with AI_TIMEOUT, never a hang', async () => {
    peer.set({ responseDelayMs: 1500 });
    const error = await provider(300)
      .generateText({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'AI_TIMEOUT',
      status: 504,
      message: 'The AI provider did not answer within 0.3 s',
    });
  });

  it('times each wait of a stream, not its whole length', async () => {
    peer.set({ reply: 'a b c d e f', chunkDelayMs: 100 });
    const result = await provider(400).generateText({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 10 });
    expect(result.text).toBe('a b c d e f');
  });

  it('an unreachable upstream is a clean 502', async () => {
    const unreachable = createOpenAiCompatibleProvider({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      imageModel: 'i',
      speechModel: 's',
      transcribeModel: 't',
      timeoutMs: 5000,
      maxOutputTokens: 10,
      maxRetries: 0,
      saveGeneratedFile: async () => 'unused',
      downloadFile: async () => ({ bytes: new Uint8Array() }),
    });
    await expect(
      unreachable.generateText({ messages: [{ role: 'user', content: 'Hi' }], maxTokens: 10 }),
    ).rejects.toMatchObject({
      code: 'AI_PROVIDER_ERROR',
      message: 'The AI provider failed: it could not be reached',
    });
  });
});

describe('POST /api/ai/:projectId/object', () => {
  const schema = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      technology: { type: 'string' },
      datePublished: { type: 'string' },
      partNumber: { type: 'string' },
    },
    required: ['title', 'technology', 'datePublished'],
  };

  it('asks the peer for structured output and answers {object, finishReason, usage}', async () => {
    const object = { title: 'RTU manual', technology: 'HVAC', datePublished: '2021', partNumber: 'PN-1' };
    peer.set({ object });
    const response = await post('object', {
      prompt: 'Extract the metadata from this text: RTU manual',
      schema,
      fileName: 'PN-1_RTU.pdf',
      stream: false,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object,
      finishReason: 'stop',
      usage: {
        promptTokens: expect.any(Number),
        completionTokens: expect.any(Number),
        totalTokens: expect.any(Number),
      },
    });
    const [sent] = peer.chatRequests();
    expect(sent!.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema, strict: false } });
    expect(JSON.stringify(sent!.messages)).toContain('File name: PN-1_RTU.pdf');
  });

  it('streams the bare JSON text of the object (PLATFORM_API.md 5.4)', async () => {
    peer.set({ object: { title: 'T', technology: 'Pumps', datePublished: 'Unknown' } });
    const response = await post('object', { prompt: 'Extract', schema, stream: true });
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('{"title":"T","technology":"Pumps","datePublished":"Unknown"}');
  });

  it('an answer that is not a JSON object is a clean 502', async () => {
    peer.set({ object: ['not', 'an', 'object'] });
    const response = await post('object', { prompt: 'Extract', schema });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toBe('The AI provider failed: its answer was not a JSON object');
  });
});

describe('images, speech and transcription', () => {
  it('generates images, stores them and answers their URLs', async () => {
    const response = await post('image', { prompt: 'A labelled diagram of a heat pump', n: 2, size: '1024x1024' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.data).toHaveLength(2);
    for (const { url } of body.data) {
      expect(url).toMatch(storedFileUrl(/[0-9a-f-]{36}\.png/));
      expect(await server.readStored(url)).toEqual(PEER_PNG);
    }
    // One image per upstream call: the SDK splits n by what the model takes per call.
    expect(peer.requests).toHaveLength(2);
    for (const request of peer.requests) {
      expect(request).toMatchObject({
        path: '/v1/images/generations',
        body: { model: 'peer-image', prompt: 'A labelled diagram of a heat pump', n: 1, size: '1024x1024' },
      });
    }
  });

  it('edits images downloaded by the server', async () => {
    server.downloads.set('https://files.example.com/a.jpg', { bytes: PEER_PNG, contentType: 'image/png' });
    const response = await post('image', { prompt: 'Circle the valve', images: ['https://files.example.com/a.jpg'] });
    expect(response.status).toBe(200);
    expect(peer.requests[0]).toMatchObject({
      path: '/v1/images/edits',
      body: { model: 'peer-image', prompt: 'Circle the valve' },
    });
  });

  it('speaks text into a stored audio file', async () => {
    const response = await post('speech', { text: 'Turn off the breaker.', voice: 'nova' });
    const body = await response.json();
    expect(body).toEqual({
      url: expect.stringMatching(storedFileUrl(/[0-9a-f-]{36}\.mp3/)),
      voice: 'nova',
      format: 'mp3',
      mimeType: 'audio/mpeg',
    });
    expect((await server.readStored(body.url)).toString()).toBe('ID3 peer speech: Turn off the breaker.');
    expect(peer.requests[0]).toMatchObject({
      path: '/v1/audio/speech',
      body: { model: 'peer-speech', input: 'Turn off the breaker.', voice: 'nova', response_format: 'mp3' },
    });
  });

  it('transcribes audio sent as byte values, base64 or a data URL', async () => {
    const wav = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), Buffer.alloc(64)]);
    for (const audio of [Array.from(wav), wav.toString('base64'), `data:audio/wav;base64,${wav.toString('base64')}`]) {
      const response = await post('transcribe', { audio, language: 'en' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        text: PEER_TRANSCRIPT,
        transcript: PEER_TRANSCRIPT,
        language: 'en',
        duration: 1.5,
        segments: [{ text: PEER_TRANSCRIPT, start: 0, end: 1.5 }],
      });
    }
    expect(peer.requests[0]!.body).toMatchObject({
      model: 'peer-transcribe',
      language: 'en',
      file: { size: wav.length },
    });
  });

  it('transcribes audio at a URL, downloaded by the server', async () => {
    server.downloads.set('https://files.example.com/voice-note.wav', {
      bytes: Buffer.from('RIFF....WAVEfmt '),
      contentType: 'audio/wav',
    });
    const response = await post('transcribe', { audio: 'https://files.example.com/voice-note.wav' });
    expect((await response.json()).text).toBe(PEER_TRANSCRIPT);
    expect(peer.requests[0]!.body).toMatchObject({ file: { size: 16 } });
  });

  it('accepts transcription bodies beyond the global 5 MB limit (audio as a JSON byte array)', async () => {
    const audio = Array.from(Buffer.alloc(2 * 1024 * 1024, 7)); // about 4 MB of JSON ... times two below
    const response = await post('transcribe', { audio: [...audio, ...audio] });
    expect(response.status).toBe(200);
  });
});
