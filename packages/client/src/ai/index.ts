// `client.ai` (PLATFORM_API.md section 5, and the product's chat): every call checks SPEC.md
// section 5's rules before sending, and fails with one of the SDK's error classes.
import { FieldAssistAIError } from '../errors.js';
import { createChat } from './chat.js';
import { createAiTransport, type AiTransportOptions } from './transport.js';
import type {
  AiClient,
  ImageGenerationResponse,
  ObjectGenerationResponse,
  SpeechGenerationResponse,
  TextGenerationOptions,
  TextGenerationResponse,
  TranscriptionResponse,
} from './types.js';
import { collectUiMessageText } from './ui-message-stream.js';
import { audioPayload, checkImages, checkTextOptions, invalid } from './validation.js';

const invalidResponse = (what: string) =>
  new FieldAssistAIError({ message: `Invalid response format: ${what}`, code: 'INVALID_RESPONSE', status: 0 });

function textBody({ signal: _signal, ...options }: TextGenerationOptions, stream: boolean) {
  checkTextOptions(options);
  return { ...options, prompt: options.prompt || undefined, stream };
}

function imageResponse(data: unknown): ImageGenerationResponse {
  const images = (data as { data?: unknown } | null)?.data;
  if (!Array.isArray(images) || !images.every((image) => typeof (image as { url?: unknown })?.url === 'string'))
    throw invalidResponse('missing image URLs');
  return data as ImageGenerationResponse;
}

export function createAi(options: AiTransportOptions & { projectId: string }): AiClient {
  const transport = createAiTransport(options);
  const path = (route: string) => `/ai/${encodeURIComponent(options.projectId)}/${route}`;

  return {
    async generateText(opts) {
      return transport.post<TextGenerationResponse>(path('text'), textBody(opts, false), opts.signal);
    },

    async streamText(opts, onChunk) {
      const body = textBody(opts, true);
      return transport.stream(path('text'), body, opts.signal, (stream) => collectUiMessageText(stream, onChunk));
    },

    async generateObject(opts) {
      if (!opts.prompt) throw invalid('Prompt is required');
      const { signal, ...body } = opts;
      return transport.post(path('object'), { ...body, stream: false }, signal);
    },

    async streamObject<T>(
      opts: Parameters<AiClient['streamObject']>[0],
      onPartial: (partial: T) => void,
    ): Promise<ObjectGenerationResponse<T>> {
      if (!opts.prompt) throw invalid('Prompt is required');
      const { signal, ...body } = opts;
      // PLATFORM_API.md 5.4: the body is the bare JSON text of the object, parsed as it grows.
      const object = await transport.stream(path('object'), { ...body, stream: true }, signal, async (stream) => {
        const decoder = new TextDecoder();
        let text = '';
        let parsed: T | undefined;
        const reader = stream.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          text += decoder.decode(chunk.value, { stream: true });
          try {
            parsed = JSON.parse(text) as T;
            onPartial(parsed);
          } catch {
            // not complete JSON yet
          }
        }
        return parsed;
      });
      return { object: object ?? ({} as T), finishReason: 'stop' };
    },

    async generateImage({ signal, ...body }) {
      if (!body.prompt) throw invalid('Prompt is required');
      return imageResponse(await transport.post(path('image'), body, signal));
    },

    async modifyImage({ signal, ...body }) {
      if (!body.prompt) throw invalid('Prompt is required');
      checkImages(body.images);
      return imageResponse(await transport.post(path('image'), body, signal));
    },

    async generateSpeech({ signal, ...body }) {
      if (!body.text) throw invalid('Text is required');
      const data = await transport.post<Partial<SpeechGenerationResponse>>(path('speech'), body, signal);
      if (typeof data?.url !== 'string') throw invalidResponse('no audio URL found');
      const format = data.format ?? body.response_format ?? 'mp3';
      return {
        url: data.url,
        voice: data.voice ?? body.voice ?? 'alloy',
        format,
        mimeType: data.mimeType ?? 'audio/mpeg',
      };
    },

    async transcribeAudio({ signal, audio, ...rest }) {
      const data = await transport.post<Partial<TranscriptionResponse>>(
        path('transcribe'),
        { ...rest, audio: audioPayload(audio) },
        signal,
      );
      const text = data?.text ?? data?.transcript;
      if (typeof text !== 'string') throw invalidResponse('missing transcription text');
      return { ...data, text, transcript: text };
    },

    chat: createChat(transport, options.projectId),
  };
}

export type * from './types.js';
