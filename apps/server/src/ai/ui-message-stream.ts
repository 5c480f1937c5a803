// The AI SDK v5 "UI message stream" SSE framing of PLATFORM_API.md 5.2 (decision 3), for the
// text endpoint and the product's chat: `data: {json}\n\n` frames, ending with `data: [DONE]`.
// A failure before the first part is thrown to the route (an ordinary HTTP error); after
// it, the failure is an `error` part and the stream ends.
import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import type { AiFinishReason, AiTextPart, AiUsage } from './provider.js';

export type UiMessagePart =
  | { type: 'start'; messageId: string }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'finish'; finishReason: AiFinishReason; usage: AiUsage }
  | { type: 'error'; errorText: string }
  | { type: `data-${string}`; data: unknown };

export const uiMessageStreamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no', // a reverse proxy must pass each frame on as it comes
};

export interface UiMessageStreamOptions {
  /** Parts sent before the text (the chat's `data-sources`). */
  before?: UiMessagePart[];
  /** Runs once the text is complete (the chat saves the message); its parts precede `finish`. */
  onFinish?: (answer: {
    text: string;
    finishReason: AiFinishReason;
    usage: AiUsage;
  }) => Promise<UiMessagePart[] | void>;
  /** Called with a failure that happened after the stream opened (the route logs it). */
  onError?: (error: unknown) => void;
  /** The `error` part's text for a failure that is not an ApiError (whose message is meant for users). */
  errorText?: string;
  /**
   * Keep producing after the client goes away, so `onFinish` still runs (the chat saves its
   * answer); frames for a gone client are dropped. By default the producer stops with the client.
   */
  runToEnd?: boolean;
  /** An SSE comment is written after this long without a part (default 5 s), so proxies keep the connection. */
  keepaliveMs?: number;
}

const frame = (part: UiMessagePart) => `data: ${JSON.stringify(part)}\n\n`;
const KEEPALIVE = Symbol('keepalive');

/** The next part of `iterator`, writing a keepalive comment for every `ms` of waiting. */
async function* nextWithKeepalive<T>(
  iterator: AsyncIterator<T>,
  ms: number,
): AsyncGenerator<string, IteratorResult<T>> {
  const pending = iterator.next();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<typeof KEEPALIVE>((resolve) => (timer = setTimeout(() => resolve(KEEPALIVE), ms)));
    const winner = await Promise.race([pending, tick]);
    clearTimeout(timer);
    if (winner !== KEEPALIVE) return winner;
    yield ': keepalive\n\n';
  }
}

async function* frames(
  iterator: AsyncIterator<AiTextPart>,
  first: IteratorResult<AiTextPart>,
  options: UiMessageStreamOptions,
) {
  const id = 'text-0';
  let text = '';
  let finish: Extract<AiTextPart, { type: 'finish' }> = {
    type: 'finish',
    finishReason: 'stop',
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
  yield frame({ type: 'start', messageId: randomUUID() });
  for (const part of options.before ?? []) yield frame(part);
  yield frame({ type: 'text-start', id });
  try {
    for (let result = first; !result.done; result = yield* nextWithKeepalive(iterator, options.keepaliveMs ?? 5000)) {
      const part = result.value;
      if (part.type === 'finish') finish = part;
      else {
        text += part.delta;
        yield frame({ type: 'text-delta', id, delta: part.delta });
      }
    }
    yield frame({ type: 'text-end', id });
    const extra = await options.onFinish?.({ text, finishReason: finish.finishReason, usage: finish.usage });
    for (const part of extra ?? []) yield frame(part);
    yield frame({ type: 'finish', finishReason: finish.finishReason, usage: finish.usage });
  } catch (error) {
    options.onError?.(error);
    yield frame({
      type: 'error',
      errorText: error instanceof ApiError ? error.message : (options.errorText ?? 'The answer could not be completed'),
    });
  } finally {
    await iterator.return?.();
  }
  yield 'data: [DONE]\n\n';
}

/**
 * Waits for the first part of `parts` (rethrowing its failure, before any byte is sent),
 * then returns the whole stream as a Node Readable for `reply.headers(...).send(...)`.
 */
export async function openUiMessageStream(
  parts: AsyncIterable<AiTextPart>,
  options: UiMessageStreamOptions = {},
): Promise<Readable> {
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  const source = frames(iterator, first, options);
  // Pulled by the response, the frames stop when it is destroyed (the client left).
  if (!options.runToEnd) return Readable.from(source, { objectMode: false });
  // Pushed from here instead, to the end whatever the client does (unthrottled: an answer is a few KB).
  const out = new PassThrough();
  (async () => {
    for await (const chunk of source) if (!out.destroyed) out.write(chunk);
    out.end();
  })().catch((error: Error) => out.destroy(error));
  return out;
}
