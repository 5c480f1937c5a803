// The request bodies of /api/ai/{pid}/* (PLATFORM_API.md section 5). Zod checks the shape;
// the `check*` functions apply SPEC.md section 5's rules with its exact texts (the same the
// client SDK shows before sending), which is why those texts carry no "body." prefix.
import { z } from 'zod';
import { imageUrlProblem } from '@fieldassist/client/image-url';
import { ApiError } from '../errors.js';
import type { JsonObjectSchema } from './provider.js';

const MAX_TEXT = 100_000;
/** Images a text request may show the model: each one is downloaded by the server. */
export const MAX_MESSAGE_IMAGES = 10;
export const MAX_EDIT_IMAGES = 50;

const ZContentPart = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(MAX_TEXT) }),
  z.object({ type: z.literal('image'), image: z.string().max(4096) }),
]);

export const ZAiMessage = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.union([z.string().max(MAX_TEXT), z.array(ZContentPart).max(50)]),
});

/** `model`, `search`, `maxSteps` are accepted and ignored: the server's configured model answers. */
export const ZTextBody = z.object({
  prompt: z.string().max(MAX_TEXT).optional(),
  messages: z.array(ZAiMessage).max(200).optional(),
  system: z.string().max(MAX_TEXT).optional(),
  stream: z.boolean().optional(),
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  model: z.string().optional(),
});
export type TextBody = z.infer<typeof ZTextBody>;

export const ZObjectBody = z.object({
  prompt: z.string().max(MAX_TEXT).optional(),
  schema: z.record(z.string(), z.unknown()).optional(),
  output: z.string().optional(),
  system: z.string().max(MAX_TEXT).optional(),
  /** FieldAssist's own addition: the manual's file name, for SPEC.md section 5's file-name rule. */
  fileName: z.string().max(255).optional(),
  stream: z.boolean().optional(),
  model: z.string().optional(),
});
export type ObjectBody = z.infer<typeof ZObjectBody>;

export const ZImageBody = z.object({
  prompt: z.string().max(MAX_TEXT).optional(),
  images: z.array(z.string().max(4096)).optional(),
  n: z.number().int().min(1).max(4).default(1),
  size: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/, 'must look like 1024x1024')
    .optional(),
  model: z.string().optional(),
});
export type ImageBody = z.infer<typeof ZImageBody>;

export const ZSpeechBody = z.object({
  text: z.string().max(4096).optional(),
  voice: z.string().min(1).max(32).default('alloy'),
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).default('mp3'),
  speed: z.number().min(0.25).max(4).optional(),
  model: z.string().optional(),
});
export type SpeechBody = z.infer<typeof ZSpeechBody>;

/**
 * `audio` is checked by decodeAudioInput, which knows SPEC.md's texts for it. The answer is
 * always the JSON of PLATFORM_API.md 5.7, whatever `response_format` asks.
 */
export const ZTranscribeBody = z.object({
  audio: z.unknown().optional(),
  language: z.string().max(16).optional(),
  response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']).optional(),
  model: z.string().optional(),
});
export type TranscribeBody = z.infer<typeof ZTranscribeBody>;

const invalid = (message: string) => new ApiError('VALIDATION_ERROR', message);

export function checkTextBody(body: TextBody): void {
  if (!body.prompt && !body.messages?.length) throw invalid('Either prompt or messages is required');
  const problems: string[] = [];
  let images = 0;
  body.messages?.forEach((message, m) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((part, c) => {
      if (part.type !== 'image') return;
      images++;
      const problem = imageUrlProblem(part.image);
      if (problem) problems.push(`Message ${m}, content ${c}: ${problem}`);
    });
  });
  if (problems.length) throw invalid(`Message validation failed: ${problems.join('; ')}`);
  if (images > MAX_MESSAGE_IMAGES) throw invalid(`Maximum ${MAX_MESSAGE_IMAGES} images per request`);
}

export function checkObjectBody(
  body: ObjectBody,
): asserts body is ObjectBody & { prompt: string; schema: JsonObjectSchema } {
  if (!body.prompt) throw invalid('Prompt is required');
  if (body.output !== undefined && body.output !== 'object')
    throw invalid(`output must be 'object', got '${body.output}'`);
  const type = body.schema?.type;
  if (type !== 'object')
    throw invalid(`schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(type ?? null)}'`);
}

export function checkImageBody(body: ImageBody): asserts body is ImageBody & { prompt: string } {
  if (!body.prompt) throw invalid('Prompt is required');
  if (!body.images) return;
  if (body.images.length === 0) throw invalid('Images array is required and must contain at least one image URL');
  if (body.images.length > MAX_EDIT_IMAGES) throw invalid('Maximum 50 images allowed');
  body.images.forEach((image, i) => {
    const problem = imageUrlProblem(image);
    if (problem) throw invalid(`Image ${i + 1}: ${problem}`);
  });
}

export function checkSpeechBody(body: SpeechBody): asserts body is SpeechBody & { text: string } {
  if (!body.text) throw invalid('Text is required');
}
