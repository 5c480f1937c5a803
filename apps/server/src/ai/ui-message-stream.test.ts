// openUiMessageStream on its own: what happens to the producer when the client goes away
// (the response destroys the stream), by default and with `runToEnd`.
import type { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors.js';
import type { AiTextPart } from './provider.js';
import { openUiMessageStream, type UiMessageStreamOptions } from './ui-message-stream.js';

const WORDS = ['one ', 'two ', 'three ', 'four ', 'five'];
const usage = { promptTokens: 1, completionTokens: 5, totalTokens: 6 };

/** A model answering a word every 10 ms; `log` records each word sent and when it was closed. */
async function* model(log: string[], failAfter = Infinity): AsyncGenerator<AiTextPart> {
  try {
    for (const [i, delta] of WORDS.entries()) {
      if (i === failAfter) throw new Error('socket hang up');
      await new Promise((resolve) => setTimeout(resolve, 10));
      log.push(delta);
      yield { type: 'text-delta', delta };
    }
    yield { type: 'finish', finishReason: 'stop', usage };
  } finally {
    log.push('closed');
  }
}

async function readAll(stream: Readable) {
  let body = '';
  for await (const chunk of stream) body += String(chunk);
  return body;
}

/** Reads until the first text-delta, then leaves the way a response does: it destroys the stream. */
async function leaveAfterFirstDelta(stream: Readable) {
  let body = '';
  for await (const chunk of stream) if ((body += String(chunk)).includes('"text-delta"')) break;
}

const options = (onFinish: UiMessageStreamOptions['onFinish']): UiMessageStreamOptions => ({
  before: [{ type: 'data-sources', data: [] }],
  onFinish,
});

describe('openUiMessageStream', () => {
  it('writes the same frames with runToEnd as without', async () => {
    const frames = async (runToEnd: boolean) => {
      const onFinish = async () => [{ type: 'data-message' as const, data: { id: 'm1' } }];
      const body = await readAll(await openUiMessageStream(model([]), { ...options(onFinish), runToEnd }));
      return body.replace(/"messageId":"[^"]+"/, '"messageId":"x"');
    };
    const plain = await frames(false);
    expect(await frames(true)).toBe(plain);
    expect(plain.split('\n\n').slice(0, 3)).toEqual([
      'data: {"type":"start","messageId":"x"}',
      'data: {"type":"data-sources","data":[]}',
      'data: {"type":"text-start","id":"text-0"}',
    ]);
    expect(
      plain.endsWith(
        'data: {"type":"text-end","id":"text-0"}\n\ndata: {"type":"data-message","data":{"id":"m1"}}\n\n' +
          `data: {"type":"finish","finishReason":"stop","usage":${JSON.stringify(usage)}}\n\ndata: [DONE]\n\n`,
      ),
    ).toBe(true);
  });

  it('stops the producer when the client goes away, without finishing', async () => {
    const log: string[] = [];
    const onFinish = vi.fn(async () => undefined);
    await leaveAfterFirstDelta(await openUiMessageStream(model(log), options(onFinish)));
    await expect.poll(() => log.at(-1)).toBe('closed');
    expect(log.length).toBeLessThan(WORDS.length + 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('with runToEnd, finishes the answer once after the client went away', async () => {
    const log: string[] = [];
    const onFinish = vi.fn(async () => undefined);
    await leaveAfterFirstDelta(await openUiMessageStream(model(log), { ...options(onFinish), runToEnd: true }));
    expect(log.length).toBeLessThan(WORDS.length);
    await expect.poll(() => onFinish.mock.calls.length).toBe(1);
    expect(onFinish).toHaveBeenCalledWith({ text: WORDS.join(''), finishReason: 'stop', usage });
    expect(log).toEqual([...WORDS, 'closed']);
  });

  it("turns a failure after the first part into an error part, with the caller's text unless it is an ApiError", async () => {
    const onError = vi.fn();
    const body = await readAll(
      await openUiMessageStream(model([], 2), { onError, errorText: 'Please ask again', runToEnd: true }),
    );
    expect(body).toContain('data: {"type":"error","errorText":"Please ask again"}\n\ndata: [DONE]\n\n');
    expect(body).not.toContain('text-end');
    expect(onError).toHaveBeenCalledWith(new Error('socket hang up'));

    const refused = async function* (): AsyncGenerator<AiTextPart> {
      yield { type: 'text-delta', delta: 'a' };
      throw new ApiError('AI_PROVIDER_ERROR', 'The AI provider failed: it stopped');
    };
    expect(await readAll(await openUiMessageStream(refused(), { errorText: 'Please ask again' }))).toContain(
      '"errorText":"The AI provider failed: it stopped"',
    );
  });
});
