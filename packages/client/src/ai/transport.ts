// How the AI module talks to the server: JSON calls through the shared HTTP core, and the
// streamed calls (whose bodies the core would read whole) through fetch with the same
// credentials and the same one refresh-and-retry after a 401 (nothing was streamed yet).
import {
  errorFromResponse,
  FieldAssistAIError,
  FieldAssistAuthError,
  FieldAssistError,
  FieldAssistValidationError,
  networkError,
} from '../errors.js';
import type { AccessTokenGetter, FetchLike, HttpCore } from '../http.js';

export interface AiTransportOptions {
  http: HttpCore;
  fetch: FetchLike;
  secretKey?: string;
  getAccessToken?: AccessTokenGetter;
  refreshAccessToken?: () => Promise<string | null | undefined>;
}

/**
 * Failures of AI calls: 400 stays a validation error and 401 an auth error; any other
 * status becomes FieldAssistAIError with the server's code (AI_PROVIDER_ERROR, RATE_LIMITED,
 * SERVICE_UNAVAILABLE, ...); no response at all stays a network error (status 0).
 */
export function asAiError(error: unknown): FieldAssistError {
  if (!(error instanceof FieldAssistError)) return networkError(error);
  if (
    error instanceof FieldAssistAuthError ||
    error instanceof FieldAssistValidationError ||
    error instanceof FieldAssistAIError ||
    error.status === 0
  )
    return error;
  return new FieldAssistAIError({
    message: error.message,
    code: error.code,
    status: error.status,
    details: error.details,
    retryAfterMs: error.retryAfterMs,
  });
}

async function errorBodyOf(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return (response.headers.get('content-type') ?? '').includes('application/json')
      ? JSON.parse(text)
      : { message: text };
  } catch {
    return { message: 'Unknown error occurred' };
  }
}

export function createAiTransport(options: AiTransportOptions) {
  const { http } = options;

  async function send(path: string, body: unknown, signal: AbortSignal | undefined, token: string | null | undefined) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const credential = options.secretKey ?? token;
    if (credential) headers.Authorization = `Bearer ${credential}`;
    return options.fetch(http.url(path), { method: 'POST', headers, body: JSON.stringify(body), signal });
  }

  return {
    /** A JSON call; resolves with the decoded body. */
    async post<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
      try {
        return (await http.request<T>({ method: 'POST', path, body, signal })).data;
      } catch (error) {
        throw asAiError(error);
      }
    },

    /** Runs `read` on the streamed body of a successful POST; every failure is mapped like `post`'s. */
    async stream<T>(
      path: string,
      body: unknown,
      signal: AbortSignal | undefined,
      read: (body: ReadableStream<Uint8Array>) => Promise<T>,
    ): Promise<T> {
      try {
        const token = options.secretKey ? undefined : await options.getAccessToken?.();
        let response = await send(path, body, signal, token);
        if (response.status === 401 && token && options.refreshAccessToken) {
          const fresh = await options.refreshAccessToken();
          if (fresh) response = await send(path, body, signal, fresh);
        }
        if (!response.ok) throw errorFromResponse(response.status, await errorBodyOf(response), response.headers);
        if (!response.body) throw new Error('The response has no body');
        return await read(response.body);
      } catch (error) {
        throw asAiError(error);
      }
    },
  };
}

export type AiTransport = ReturnType<typeof createAiTransport>;
