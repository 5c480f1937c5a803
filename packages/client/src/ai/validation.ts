// SPEC.md section 5's checks before an AI request leaves the app, with its texts (the
// server applies the same rules with the same texts).
import { imageUrlProblem } from '@fieldassist/client/image-url';
import { FieldAssistValidationError } from '../errors.js';
import type { AiMessage, TranscriptionOptions } from './types.js';

export const MAX_IMAGES = 50;

export const invalid = (message: string) =>
  new FieldAssistValidationError({ message, code: 'VALIDATION_ERROR', status: 0 });

export function checkTextOptions(options: { prompt?: string; messages?: AiMessage[] }): void {
  if (!options.prompt && !options.messages?.length) throw invalid('Either prompt or messages is required');
  const problems: string[] = [];
  options.messages?.forEach((message, m) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, c) => {
      if (part.type !== 'image') return;
      const problem =
        typeof part.image === 'string' ? imageUrlProblem(part.image) : 'Image content must have a valid image URL';
      if (problem) problems.push(`Message ${m}, content ${c}: ${problem}`);
    });
  });
  if (problems.length) throw invalid(`Message validation failed: ${problems.join('; ')}`);
}

export function checkImages(images: unknown): void {
  if (!Array.isArray(images) || images.length === 0)
    throw invalid('Images array is required and must contain at least one image URL');
  if (images.length > MAX_IMAGES) throw invalid(`Maximum ${MAX_IMAGES} images allowed`);
  images.forEach((image, i) => {
    const problem = typeof image === 'string' ? imageUrlProblem(image) : 'Invalid URL format';
    if (problem) throw invalid(`Image ${i + 1}: ${problem}`);
  });
}

/** The audio as the JSON body carries it: a string or an array of byte values. */
export function audioPayload(audio: TranscriptionOptions['audio'] | undefined): string | number[] {
  if (audio === undefined || audio === null || audio === '') throw invalid('Audio is required');
  if (typeof audio === 'string' || Array.isArray(audio)) return audio;
  if (audio instanceof Uint8Array) return Array.from(audio);
  if (audio instanceof ArrayBuffer) return Array.from(new Uint8Array(audio));
  throw invalid('Unsupported audio input type');
}
