// What the OpenAI-compatible driver does around every upstream call: a deadline, and one
// mapping of whatever the AI SDK throws to our error type. The client never sees a stack,
// an upstream 401 (it would make the client refresh its own session) or a hang.
import { APICallError, RetryError } from 'ai';
import { ApiError } from '../errors.js';

const oneLine = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * An abort signal for one upstream call: it fires when the caller aborts or when `timeoutMs`
 * passes without `touch()` (a stream touches it on every part, so the deadline is per wait).
 */
export function createDeadline(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const onOuterAbort = () => controller.abort(outer?.reason);
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`No answer within ${seconds(timeoutMs)}`, 'TimeoutError'));
    }, timeoutMs);
  };
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  touch();
  return {
    signal: controller.signal,
    touch,
    get timedOut() {
      return timedOut;
    },
    /** Stops the clock; aborts the upstream call too when it is still running. */
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
      if (!controller.signal.aborted) controller.abort();
    },
    /** The error to report for `error`, knowing whether the deadline fired. */
    toApiError(error: unknown): ApiError {
      return timedOut
        ? withCause(new ApiError('AI_TIMEOUT', `The AI provider did not answer within ${seconds(timeoutMs)}`), error)
        : toAiError(error);
    },
  };
}

export type Deadline = ReturnType<typeof createDeadline>;

function withCause(error: ApiError, cause: unknown): ApiError {
  error.cause = cause;
  return error;
}

/** AI_PROVIDER_ERROR 502 with the detail after 'The AI provider failed: '. */
export const providerFailed = (detail: string) =>
  new ApiError('AI_PROVIDER_ERROR', `The AI provider failed: ${detail}`);

/** Maps an AI SDK failure (after its retries) to ApiError; the original stays as `cause` for the log. */
export function toAiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    if (status === 429)
      return withCause(
        new ApiError('RATE_LIMITED', 'The AI provider is busy; please wait a moment and try again.'),
        error,
      );
    if (status === 401 || status === 403)
      return withCause(providerFailed(`it refused the server's credentials (HTTP ${status})`), error);
    if (status)
      return withCause(providerFailed(`HTTP ${status}${last.message ? `: ${oneLine(last.message)}` : ''}`), error);
    return withCause(providerFailed('it could not be reached'), error);
  }
  const name = error instanceof Error ? error.name : '';
  if (/NoObjectGenerated|NoOutputGenerated|JSONParse|TypeValidation/.test(name))
    return withCause(providerFailed('its answer was not a JSON object'), error);
  if (/NoImageGenerated|NoSpeechGenerated|NoTranscriptGenerated/.test(name))
    return withCause(providerFailed('it returned nothing'), error);
  return withCause(providerFailed(error instanceof Error ? oneLine(error.message) : 'unknown error'), error);
}
