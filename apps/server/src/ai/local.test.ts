// The AI routes on the default local provider (no AI_BASE_URL): who may call them, SPEC.md
// section 5's validation texts, the no-model answer, placeholder objects and the 503s.
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_MODEL_ANSWER } from './local.js';
import { startAiApp } from './test-support/ai-app.js';

let server: Awaited<ReturnType<typeof startAiApp>>;
beforeAll(async () => {
  server = await startAiApp();
});

function post(route: string, payload: unknown, headers: Record<string, string> = server.user.headers) {
  return server.app.inject({
    method: 'POST',
    url: `/api/ai/${server.projectId}/${route}`,
    headers,
    payload: payload as object,
  });
}

async function expectRefused(route: string, payload: unknown, status: number, code: string, message: string) {
  const response = await post(route, payload);
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: message, message, code },
  });
}

const metadataSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    technology: { type: 'string' },
    datePublished: { type: 'string' },
    partNumber: { type: 'string' },
  },
  required: ['title', 'technology', 'datePublished'],
};

const coverPage = `Grundfos
CR, CRI, CRN Vertical multistage centrifugal pumps
Service instructions
Part No. 96462123
Published: 2019-06-01
The pump impeller and the shaft seal are replaced as one kit.`;

describe('who may call the AI routes', () => {
  it.each(['text', 'object', 'image', 'speech', 'transcribe'])(
    '%s: signed out is 401 before the body is looked at',
    async (route) => {
      const response = await post(route, {}, {});
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Authentication required' });
    },
  );

  it('a bad token is 401 with its own reason', async () => {
    const response = await post('text', { prompt: 'Hi' }, { authorization: 'Bearer not-a-token' });
    expect(response.statusCode).toBe(401);
  });

  it('the service key may call', async () => {
    const response = await post('text', { prompt: 'Hi' }, { authorization: `Bearer ${server.serviceKey}` });
    expect(response.statusCode).toBe(200);
  });

  it('another project id is 404', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/ai/other-project/text',
      headers: server.user.headers,
      payload: { prompt: 'Hi' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('SPEC.md section 5 validation, with its texts', () => {
  it.each([
    ['text', { stream: true }, 'Either prompt or messages is required'],
    ['text', { prompt: '', messages: [] }, 'Either prompt or messages is required'],
    [
      'text',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'image', image: 'http://files.example.com/a.png' },
            ],
          },
        ],
      },
      'Message validation failed: Message 0, content 1: Image URLs must use HTTPS protocol',
    ],
    [
      'text',
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', image: 'https://files.example.com/a.pdf' },
              { type: 'image', image: 'not a url' },
            ],
          },
        ],
      },
      'Message validation failed: Message 0, content 0: Image URL must end with a supported format; Message 0, content 1: Invalid URL format',
    ],
    ['object', { schema: metadataSchema }, 'Prompt is required'],
    [
      'object',
      { prompt: 'List parts', schema: { type: 'array', items: { type: 'string' } } },
      `schema must be a JSON Schema of 'type: "object"', got 'type: "array"'`,
    ],
    ['object', { prompt: 'List parts' }, `schema must be a JSON Schema of 'type: "object"', got 'type: null'`],
    ['object', { prompt: 'List parts', output: 'enum', schema: metadataSchema }, "output must be 'object', got 'enum'"],
    ['image', { n: 1 }, 'Prompt is required'],
    ['image', { prompt: 'Fix it', images: [] }, 'Images array is required and must contain at least one image URL'],
    [
      'image',
      { prompt: 'Fix it', images: Array(51).fill('https://files.example.com/a.png') },
      'Maximum 50 images allowed',
    ],
    [
      'image',
      { prompt: 'Fix it', images: ['https://files.example.com/a.png', 'http://files.example.com/b.png'] },
      'Image 2: Image URLs must use HTTPS protocol',
    ],
    [
      'image',
      { prompt: 'Fix it', images: ['https://files.example.com/a.bmp'] },
      'Image 1: Image URL must end with a supported format',
    ],
    ['image', { prompt: 'Fix it', images: ['files/a.png'] }, 'Image 1: Invalid URL format'],
    ['speech', { voice: 'alloy' }, 'Text is required'],
    ['transcribe', {}, 'Audio is required'],
    ['transcribe', { audio: [] }, 'Audio is required'],
    ['transcribe', { audio: { bytes: [1, 2] } }, 'Unsupported audio input type'],
    ['transcribe', { audio: [1, 2, 300] }, 'Unsupported audio input type'],
    ['transcribe', { audio: 'data:text/plain;base64,aGk=' }, 'Unsupported audio input type'],
    ['transcribe', { audio: 'not base64 !' }, 'Unsupported audio input type'],
  ])('%s %j → %s', async (route, payload, message) => {
    await expectRefused(route, payload, 400, 'VALIDATION_ERROR', message);
  });

  it('a field of the wrong type is named', async () => {
    await expectRefused(
      'text',
      { prompt: 'Hi', maxTokens: 'many' },
      400,
      'VALIDATION_ERROR',
      'body.maxTokens: Invalid input: expected number, received string',
    );
    await expectRefused(
      'speech',
      { text: 'Hi', response_format: 'ogg' },
      400,
      'VALIDATION_ERROR',
      'body.response_format: Invalid option: expected one of "mp3"|"opus"|"aac"|"flac"|"wav"|"pcm"',
    );
  });
});

describe('text without a model', () => {
  it('answers that no model is configured, quoting nothing', async () => {
    const response = await post('text', { prompt: 'How do I reset the E4 fault?', stream: false });
    expect(response.json()).toEqual({
      text: NO_MODEL_ANSWER,
      finishReason: 'stop',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(NO_MODEL_ANSWER).not.toContain('E4');
  });

  it('streams the same answer in the UI message stream framing', async () => {
    const response = await post('text', { messages: [{ role: 'user', content: 'Hi' }], stream: true });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const parts = response.body
      .split('\n\n')
      .filter((f) => f.startsWith('data: {'))
      .map((f) => JSON.parse(f.slice(6)));
    expect(parts.map((p) => p.type)).toEqual([
      'start',
      'text-start',
      ...parts.slice(2, -2).map(() => 'text-delta'),
      'text-end',
      'finish',
    ]);
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.delta)
        .join(''),
    ).toBe(NO_MODEL_ANSWER);
    expect(response.body.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});

describe('objects without a model', () => {
  it('pulls nothing out of the prompt: a metadata schema gets placeholders too (product/manuals reads manuals itself)', async () => {
    const prompt = `Extract the title, technology, publication date and part number from this text: ${coverPage}`;
    const response = await post('object', {
      prompt,
      schema: metadataSchema,
      fileName: '3BHS123456_ACS880_Hardware_Manual.pdf',
      stream: false,
    });
    expect(response.json()).toEqual({
      object: { title: 'Unknown', technology: 'Unknown', datePublished: 'Unknown' },
      finishReason: 'stop',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
  });

  it('fills any other schema with placeholders of each required type', async () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer' },
        ok: { type: 'boolean' },
        tags: { type: 'array' },
        level: { enum: ['low', 'high'] },
        nested: { type: 'object', properties: { a: { type: ['number', 'null'] } }, required: ['a'] },
        optional: { type: 'string' },
      },
      required: ['name', 'count', 'ok', 'tags', 'level', 'nested'],
    };
    const response = await post('object', { prompt: 'Anything', schema });
    expect(response.json().object).toEqual({
      name: 'Unknown',
      count: 0,
      ok: false,
      tags: [],
      level: 'low',
      nested: { a: 0 },
    });
  });
});

describe('media without a provider', () => {
  it.each([
    ['image', { prompt: 'A pump' }],
    ['speech', { text: 'Hello' }],
    ['transcribe', { audio: [82, 73, 70, 70] }],
  ])('%s is 503 No AI provider is configured', async (route, payload) => {
    await expectRefused(route, payload, 503, 'SERVICE_UNAVAILABLE', 'No AI provider is configured');
  });
});
