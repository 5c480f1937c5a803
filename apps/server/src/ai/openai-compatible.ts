// The driver for OpenAI and any OpenAI-compatible server (vLLM, Ollama, LiteLLM), through the
// Vercel AI SDK: chat and structured output via @ai-sdk/openai-compatible; images, speech and
// transcription via @ai-sdk/openai's models for the same REST endpoints (/images/generations,
// /audio/speech, /audio/transcriptions), which the compatible provider does not cover.
import { randomUUID } from 'node:crypto';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  experimental_generateSpeech as generateSpeech,
  experimental_transcribe as transcribe,
  generateImage,
  generateText,
  jsonSchema,
  type JSONSchema7,
  type LanguageModelUsage,
  Output,
  streamText,
} from 'ai';
import { toModelPrompt } from './model-messages.js';
import {
  type AiProvider,
  type AiTextPart,
  type AiUsage,
  collectText,
  type DownloadFile,
  type SaveGeneratedFile,
  speechMimeTypes,
  type StreamTextInput,
} from './provider.js';
import { createDeadline, providerFailed } from './upstream.js';

export interface OpenAiCompatibleOptions {
  /** AI_BASE_URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  imageModel: string;
  speechModel: string;
  transcribeModel: string;
  /** Longest wait for the upstream: per part in a stream, for the whole call otherwise. */
  timeoutMs: number;
  /** Output cap for structured output (text calls carry their own `maxTokens`). */
  maxOutputTokens: number;
  /** Retries of upstream 408/409/429/5xx and network failures, honouring Retry-After. Default 2. */
  maxRetries?: number;
  saveGeneratedFile: SaveGeneratedFile;
  downloadFile: DownloadFile;
}

const usageOf = (usage: LanguageModelUsage | undefined): AiUsage => {
  const promptTokens = usage?.inputTokens ?? 0;
  const completionTokens = usage?.outputTokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage?.totalTokens ?? promptTokens + completionTokens };
};

const extensionOf = (mediaType: string) =>
  ({ 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' })[mediaType] ?? 'png';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): AiProvider {
  const { timeoutMs, downloadFile, saveGeneratedFile } = options;
  const maxRetries = options.maxRetries ?? 2;
  const baseURL = options.baseUrl.replace(/\/+$/, '');
  const chat = createOpenAICompatible({
    name: 'upstream',
    baseURL,
    apiKey: options.apiKey,
    includeUsage: true,
    supportsStructuredOutputs: true,
  });
  // An explicit (possibly empty) key: the SDK must not fall back to OPENAI_API_KEY from the environment.
  const media = createOpenAI({ name: 'upstream', baseURL, apiKey: options.apiKey ?? '' });

  /** Runs one non-streamed upstream call under the deadline and maps its failure. */
  async function call<T>(signal: AbortSignal | undefined, run: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = createDeadline(timeoutMs, signal);
    try {
      return await run(deadline.signal);
    } catch (error) {
      throw deadline.toApiError(error);
    } finally {
      deadline.dispose();
    }
  }

  async function* streamAnswer(input: StreamTextInput): AsyncGenerator<AiTextPart> {
    const deadline = createDeadline(timeoutMs, input.signal);
    try {
      const prompt = await toModelPrompt(input, downloadFile, deadline.signal);
      const result = streamText({
        model: chat(options.model),
        ...prompt,
        maxOutputTokens: input.maxTokens,
        temperature: input.temperature,
        maxRetries,
        abortSignal: deadline.signal,
        onError: () => undefined, // errors arrive as parts below; the SDK would also print them
      });
      for await (const part of result.fullStream) {
        deadline.touch();
        if (part.type === 'text-delta' && part.text) yield { type: 'text-delta', delta: part.text };
        else if (part.type === 'finish')
          yield { type: 'finish', finishReason: part.finishReason, usage: usageOf(part.totalUsage) };
        else if (part.type === 'error') throw part.error;
        else if (part.type === 'abort') throw deadline.signal.reason;
        deadline.touch(); // the time the consumer took to take the part is not the upstream's
      }
    } catch (error) {
      throw deadline.toApiError(error);
    } finally {
      deadline.dispose();
    }
  }

  return {
    kind: 'openai-compatible',
    streamText: streamAnswer,
    generateText: (input) => collectText(streamAnswer(input)),

    generateObject: ({ prompt, schema, system, fileName, signal }) =>
      call(signal, async (abortSignal) => {
        const result = await generateText({
          model: chat(options.model),
          system,
          // The file name helps a model as much as it helps the heuristics (SPEC.md 5's PARTNUMBER_name).
          prompt: fileName ? `${prompt}\n\nFile name: ${fileName}` : prompt,
          output: Output.object({ schema: jsonSchema<Record<string, unknown>>(schema as JSONSchema7) }),
          // Strict structured output needs every property required; the manual schema has optional ones.
          providerOptions: { openaiCompatible: { strictJsonSchema: false } },
          maxOutputTokens: options.maxOutputTokens,
          maxRetries,
          abortSignal,
        });
        const object: unknown = result.output;
        if (!isPlainObject(object)) throw providerFailed('its answer was not a JSON object');
        return { object, finishReason: result.finishReason, usage: usageOf(result.usage) };
      }),

    generateImage: ({ prompt, n, size, images, signal }) =>
      call(signal, async (abortSignal) => {
        const sources = images && (await Promise.all(images.map((url) => downloadFile(new URL(url), abortSignal))));
        const result = await generateImage({
          model: media.image(options.imageModel),
          prompt: sources ? { text: prompt, images: sources.map((file) => file.bytes) } : prompt,
          n,
          size,
          maxRetries,
          abortSignal,
        });
        const urls = await Promise.all(
          result.images.map((image) =>
            saveGeneratedFile(
              image.uint8Array,
              image.mediaType,
              `ai-images/${randomUUID()}.${extensionOf(image.mediaType)}`,
            ),
          ),
        );
        return { urls };
      }),

    generateSpeech: ({ text, voice, format, speed, signal }) =>
      call(signal, async (abortSignal) => {
        const result = await generateSpeech({
          model: media.speech(options.speechModel),
          text,
          voice,
          outputFormat: format,
          speed,
          maxRetries,
          abortSignal,
        });
        const mimeType = speechMimeTypes[format];
        const url = await saveGeneratedFile(result.audio.uint8Array, mimeType, `ai-speech/${randomUUID()}.${format}`);
        return { url, mimeType };
      }),

    transcribe: ({ audio, language, signal }) =>
      call(signal, async (abortSignal) => {
        const bytes = audio instanceof URL ? (await downloadFile(audio, abortSignal)).bytes : audio;
        const result = await transcribe({
          model: media.transcription(options.transcribeModel),
          audio: bytes,
          providerOptions: language ? { openai: { language } } : undefined,
          maxRetries,
          abortSignal,
        });
        return {
          text: result.text,
          language: result.language,
          durationInSeconds: result.durationInSeconds,
          segments: result.segments.map((s) => ({ text: s.text, start: s.startSecond, end: s.endSecond })),
        };
      }),
  };
}
