// The image URL rule (SPEC.md section 5): HTTPS, and a path ending in an image extension. One
// zod schema with SPEC.md's texts, checked by the client SDK before a request leaves and by the
// server at its boundary. Plain JavaScript with its types beside it, as roles.js.
import { z } from 'zod';

const IMAGE_PATH = /\.(?:jpe?g|png|gif|webp)$/i;

export const ZImageUrl = z
  .string()
  .refine((raw) => URL.canParse(raw), { error: 'Invalid URL format', abort: true })
  .refine((raw) => new URL(raw).protocol === 'https:', { error: 'Image URLs must use HTTPS protocol', abort: true })
  .refine((raw) => IMAGE_PATH.test(new URL(raw).pathname), {
    error: 'Image URL must end with a supported format',
    abort: true,
  });

/** What is wrong with an image URL, in SPEC.md's words, or undefined. */
export function imageUrlProblem(raw) {
  const result = ZImageUrl.safeParse(raw);
  return result.success ? undefined : result.error.issues[0].message;
}
