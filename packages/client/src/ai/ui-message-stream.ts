// Reads the AI SDK v5 "UI message stream" SSE framing (PLATFORM_API.md 5.2) that the text
// and chat endpoints answer with. Tolerant of how bytes arrive: frames split anywhere (even
// inside a UTF-8 character), CRLF line ends, `data:` with or without the space, comments
// (keepalives), `data: [DONE]`, unknown part types, and a last line without its newline.
import { FieldAssistAIError } from '../errors.js';
import type { AiUsage } from './types.js';

export type UiMessagePart =
  | { type: 'text-delta'; delta?: string; textDelta?: string }
  | { type: 'finish'; finishReason?: string; usage?: AiUsage }
  | { type: 'error'; errorText?: string }
  | { type: string; [key: string]: unknown };

/** Calls `onPart` with each JSON part of an SSE body, in order. */
export async function readUiMessageStream(
  body: ReadableStream<Uint8Array>,
  onPart: (part: UiMessagePart) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const handleLine = (raw: string) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith('data:')) return;
    const data = line.slice(line.startsWith('data: ') ? 6 : 5);
    if (data === '[DONE]') return;
    let part: unknown;
    try {
      part = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof part === 'object' && part !== null && typeof (part as { type?: unknown }).type === 'string')
      onPart(part as UiMessagePart);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        handleLine(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
      }
    }
    handleLine(buffer + decoder.decode());
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

export interface CollectedText {
  text: string;
  finishReason: string;
  usage?: AiUsage;
}

/**
 * Reads a text stream to its end: `onChunk` gets each delta; `onOther` any other part.
 * An `error` part throws FieldAssistAIError STREAM_ERROR with the text received so far in `details`.
 */
export async function collectUiMessageText(
  body: ReadableStream<Uint8Array>,
  onChunk: (delta: string) => void = () => undefined,
  onOther: (part: UiMessagePart) => void = () => undefined,
): Promise<CollectedText> {
  const result: CollectedText = { text: '', finishReason: 'stop' };
  await readUiMessageStream(body, (part) => {
    if (part.type === 'text-delta') {
      const { delta, textDelta } = part as { delta?: unknown; textDelta?: unknown };
      const piece = typeof delta === 'string' ? delta : typeof textDelta === 'string' ? textDelta : '';
      if (!piece) return;
      result.text += piece;
      onChunk(piece);
    } else if (part.type === 'finish') {
      const { finishReason, usage } = part as { finishReason?: unknown; usage?: AiUsage };
      if (typeof finishReason === 'string') result.finishReason = finishReason;
      if (usage) result.usage = usage;
    } else if (part.type === 'error') {
      const errorText = (part as { errorText?: unknown }).errorText;
      const message = typeof errorText === 'string' && errorText ? errorText : 'The answer could not be completed';
      throw new FieldAssistAIError({ message, code: 'STREAM_ERROR', status: 200, details: { text: result.text } });
    } else onOther(part);
  });
  return result;
}
