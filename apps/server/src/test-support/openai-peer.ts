// A local OpenAI-compatible server for tests (HOUSE_STYLE.md 10: outside services are
// replaced at the network edge). It speaks the real REST protocol on 127.0.0.1:
//   POST /v1/chat/completions      streamed (SSE chunks, usage chunk, [DONE]) or whole
//   POST /v1/images/generations    b64_json images;  POST /v1/images/edits (multipart)
//   POST /v1/audio/speech          audio bytes;      POST /v1/audio/transcriptions (multipart)
// Each test scripts the answer and its failures, and reads back every request it received.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the text fields of a multipart form (files as `{ name, size }`). */
  body: Record<string, unknown>;
}

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: unknown }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: string; json_schema?: { schema?: unknown } };
  max_tokens?: number;
  temperature?: number;
}

export interface PeerScript {
  /** The assistant's text, or a function of the request. Default 'Hello from the peer.' */
  reply: string | ((body: ChatRequestBody) => string);
  /** With a `response_format` (structured output), this object's JSON is the answer instead. */
  object?: unknown;
  /** The streamed answer is cut into pieces of this many characters (default: one word each). */
  chunkSize?: number;
  /** Wait before each streamed content piece. */
  chunkDelayMs: number;
  finishReason: string;
  /** Destroys the connection after this many streamed content pieces. */
  breakAfterChunks?: number;
  /** Delay before the response starts (headers included). */
  responseDelayMs: number;
}

export interface PeerFailure {
  status: number;
  /** Sent as the Retry-After header, in seconds. */
  retryAfter?: number;
  message?: string;
}

/** 1x1 transparent PNG. */
export const PEER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
export const PEER_TRANSCRIPT = 'Replace the condenser fan capacitor.';

const defaults = (): PeerScript => ({
  reply: 'Hello from the peer.',
  chunkDelayMs: 0,
  finishReason: 'stop',
  responseDelayMs: 0,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join(' ');
  return '';
}

/** A value for a JSON Schema: 'peer' for strings, 1, true, [], objects of all properties. */
function sampleOf(schema: { type?: unknown; properties?: Record<string, unknown> } | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === 'object')
    return Object.fromEntries(
      Object.entries(schema?.properties ?? {}).map(([key, value]) => [key, sampleOf(value as never)]),
    );
  return { number: 1, integer: 1, boolean: true, array: [] as unknown[], null: null }[type as string] ?? 'peer';
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    const fields: Record<string, unknown> = {};
    for (const [key, value] of form)
      fields[key] = typeof value === 'string' ? value : { name: value.name, size: value.size, type: value.type };
    return fields;
  }
  return raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
}

export async function startOpenAiPeer() {
  const requests: PeerRequest[] = [];
  const failures: PeerFailure[] = [];
  let script = defaults();
  let activeStreams = 0;
  let completedStreams = 0;

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  async function chat(body: ChatRequestBody, res: ServerResponse) {
    const structured = body.response_format?.type?.startsWith('json');
    const text = structured
      ? JSON.stringify(script.object ?? sampleOf(body.response_format?.json_schema?.schema as never))
      : typeof script.reply === 'function'
        ? script.reply(body)
        : script.reply;
    const promptTokens = body.messages.reduce((sum, m) => sum + words(textOf(m.content)), 0);
    const base = { id: 'chatcmpl-peer', created: Math.floor(Date.now() / 1000), model: body.model };
    if (!body.stream) {
      const usage = {
        prompt_tokens: promptTokens,
        completion_tokens: words(text),
        total_tokens: promptTokens + words(text),
      };
      return json(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: script.finishReason }],
        usage,
      });
    }
    const pieces = script.chunkSize
      ? (text.match(new RegExp(`[\\s\\S]{1,${script.chunkSize}}`, 'g')) ?? [])
      : (text.match(/\S+\s*/g) ?? []);
    const send = (chunk: object) =>
      res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...chunk })}\n\n`);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    activeStreams++;
    try {
      send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      for (const [i, piece] of pieces.entries()) {
        if (script.chunkDelayMs) await sleep(script.chunkDelayMs);
        if (script.breakAfterChunks !== undefined && i >= script.breakAfterChunks) return void res.destroy();
        if (res.destroyed) return;
        send({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      }
      send({ choices: [{ index: 0, delta: {}, finish_reason: script.finishReason }] });
      if (body.stream_options?.include_usage) {
        send({
          choices: [],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: pieces.length,
            total_tokens: promptTokens + pieces.length,
          },
        });
      }
      res.end('data: [DONE]\n\n');
      completedStreams++;
    } finally {
      activeStreams--;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = (req.url ?? '').split('?')[0]!;
    const body = await readBody(req);
    requests.push({ path, headers: req.headers, body });
    if (script.responseDelayMs) await sleep(script.responseDelayMs);
    const failure = failures.shift();
    if (failure) {
      const headers: Record<string, string> =
        failure.retryAfter !== undefined ? { 'retry-after': String(failure.retryAfter) } : {};
      return json(
        res,
        failure.status,
        { error: { message: failure.message ?? `peer failure ${failure.status}`, type: 'server_error', code: null } },
        headers,
      );
    }
    switch (path) {
      case '/v1/chat/completions':
        return chat(body as unknown as ChatRequestBody, res);
      case '/v1/images/generations':
      case '/v1/images/edits':
        return json(res, 200, {
          created: Math.floor(Date.now() / 1000),
          data: Array.from({ length: Number(body.n ?? 1) }, () => ({ b64_json: PEER_PNG.toString('base64') })),
        });
      case '/v1/audio/speech':
        return res
          .writeHead(200, { 'content-type': 'audio/mpeg' })
          .end(Buffer.from(`ID3 peer speech: ${String(body.input)}`));
      case '/v1/audio/transcriptions': {
        const segments = [
          {
            id: 0,
            seek: 0,
            start: 0,
            end: 1.5,
            text: PEER_TRANSCRIPT,
            tokens: [1],
            temperature: 0,
            avg_logprob: 0,
            compression_ratio: 1,
            no_speech_prob: 0,
          },
        ];
        return json(res, 200, { text: PEER_TRANSCRIPT, language: 'english', duration: 1.5, segments });
      }
      default:
        return json(res, 404, { error: { message: `no route ${path}`, type: 'invalid_request_error' } });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) json(res, 500, { error: { message: error.message } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** The AI_BASE_URL for this peer. */
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Chat requests only, with their typed bodies. */
    chatRequests: () =>
      requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as unknown as ChatRequestBody),
    /** Changes the script from now on (the rest keeps its value). */
    set(changes: Partial<PeerScript>) {
      script = { ...script, ...changes };
    },
    /** The next `count` requests answer with this failure instead. */
    failNext(count: number, failure: PeerFailure) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    /** Streams still being written, and streams written to the end. */
    get activeStreams() {
      return activeStreams;
    },
    get completedStreams() {
      return completedStreams;
    },
    reset() {
      script = defaults();
      failures.length = 0;
      requests.length = 0;
      completedStreams = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type OpenAiPeer = Awaited<ReturnType<typeof startOpenAiPeer>>;
