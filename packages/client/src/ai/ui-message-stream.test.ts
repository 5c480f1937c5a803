// The UI message stream reader against byte streams cut in awkward places.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldAssistAIError } from '../errors.js';
import { collectUiMessageText, readUiMessageStream, type UiMessagePart } from './ui-message-stream.js';

/** A body that delivers `text` as UTF-8 in pieces cut at the given byte offsets. */
function bodyOf(text: string, cuts: number[] = []): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const edges = [0, ...[...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  return new ReadableStream({
    start(controller) {
      for (let i = 1; i < edges.length; i++) controller.enqueue(bytes.slice(edges[i - 1], edges[i]));
      controller.close();
    },
  });
}

const stream = [
  'data: {"type":"start","messageId":"m1"}',
  '',
  'data: {"type":"text-start","id":"t"}',
  '',
  'data: {"type":"text-delta","id":"t","delta":"Prüfen Sie "}',
  '',
  ': keepalive',
  '',
  'data: {"type":"text-delta","id":"t","delta":"den Lüfter 🌀"}',
  '',
  'data: {"type":"text-end","id":"t"}',
  '',
  'data: {"type":"finish","finishReason":"stop","usage":{"promptTokens":3,"completionTokens":2,"totalTokens":5}}',
  '',
  'data: [DONE]',
  '',
  '',
].join('\n');

describe('collectUiMessageText', () => {
  it('reads text, finish reason and usage, calling onChunk per delta', async () => {
    const chunks: string[] = [];
    const result = await collectUiMessageText(bodyOf(stream), (delta) => chunks.push(delta));
    expect(chunks).toEqual(['Prüfen Sie ', 'den Lüfter 🌀']);
    expect(result).toEqual({
      text: 'Prüfen Sie den Lüfter 🌀',
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    });
  });

  it('gives the same result however the bytes are cut', async () => {
    const length = new TextEncoder().encode(stream).length;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: length - 1 }), { maxLength: 40 }), async (cuts) => {
        expect((await collectUiMessageText(bodyOf(stream, cuts))).text).toBe('Prüfen Sie den Lüfter 🌀');
      }),
    );
  });

  it('accepts CRLF, `data:` without its space, textDelta, a last line without newline, and skips junk', async () => {
    const text = [
      'data:{"type":"text-delta","delta":"a"}\r',
      'data: {"type":"text-delta","textDelta":"b"}\r',
      'event: ping',
      'data: not json',
      'data: {"no":"type"}',
      'data: {"type":"some-future-part"}',
      'data: {"type":"text-delta","delta":"c"}',
    ].join('\n');
    expect((await collectUiMessageText(bodyOf(text))).text).toBe('abc');
  });

  it('throws the error part as FieldAssistAIError, keeping the text received so far', async () => {
    const text =
      'data: {"type":"text-delta","delta":"half"}\n\ndata: {"type":"error","errorText":"The AI provider failed: HTTP 500"}\n\ndata: [DONE]\n\n';
    const error = await collectUiMessageText(bodyOf(text)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FieldAssistAIError);
    expect(error).toMatchObject({
      message: 'The AI provider failed: HTTP 500',
      code: 'STREAM_ERROR',
      details: { text: 'half' },
    });
  });

  it('hands other parts (data-*) on in order', async () => {
    const parts: UiMessagePart[] = [];
    await readUiMessageStream(
      bodyOf('data: {"type":"data-sources","data":[]}\n\ndata: {"type":"text-delta","delta":"x"}\n\n'),
      (p) => parts.push(p),
    );
    expect(parts.map((p) => p.type)).toEqual(['data-sources', 'text-delta']);
  });
});
