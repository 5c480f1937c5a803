import { isFieldAssistError } from '@fieldassist/client';

/** No response, a time-out, a rate limit or a busy server: worth another try (SPEC.md section 8). */
export function isTransient(error: unknown): boolean {
  if (!isFieldAssistError(error)) return false;
  return error.retryable || [0, 408, 429, 502, 503, 504].includes(error.status);
}

/** How long the server asked us to wait (its Retry-After); undefined, and the caller backs off on its own. */
const retryAfterMs = (error: unknown) => (isFieldAssistError(error) ? error.retryAfterMs : undefined);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task`, and again up to `retries` more times after a transient failure, waiting what
 * the server asked for or `baseMs` doubling each time (SPEC.md section 9). Waiting only
 * when refused replaces the spec's fixed i x 5 s throttle of bulk uploads (issue 8).
 */
export async function withRetries<T>(
  task: () => Promise<T>,
  { retries, baseMs }: { retries: number; baseMs: number },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (attempt >= retries || !isTransient(error)) throw error;
      await sleep(retryAfterMs(error) ?? baseMs * 2 ** attempt);
    }
  }
}
