// `client.data` (PLATFORM_API.md section 6): the text of a document named by its URL.
import {
  FieldAssistAuthError,
  FieldAssistDataError,
  FieldAssistError,
  FieldAssistValidationError,
  networkError,
} from '../errors.js';
import type { HttpCore } from '../http.js';
import type { DataClient, ExtractOptions } from './types.js';

const invalid = (message: string) => new FieldAssistValidationError({ message, code: 'VALIDATION_ERROR', status: 0 });
const invalidResponse = (what: string) =>
  new FieldAssistDataError({
    message: `Invalid response format: missing ${what}`,
    code: 'INVALID_RESPONSE',
    status: 0,
  });

/** 400, 401 and "no response" keep their classes; any other refusal is a FieldAssistDataError with the server's code. */
function asDataError(error: unknown): FieldAssistError {
  if (!(error instanceof FieldAssistError)) return networkError(error);
  if (
    error instanceof FieldAssistAuthError ||
    error instanceof FieldAssistValidationError ||
    error instanceof FieldAssistDataError ||
    error.status === 0
  )
    return error;
  return new FieldAssistDataError({
    message: error.message,
    code: error.code,
    status: error.status,
    details: error.details,
    retryAfterMs: error.retryAfterMs,
  });
}

export function createData({ http, projectId }: { http: HttpCore; projectId: string }): DataClient {
  const path = (route: string) => `/data/${encodeURIComponent(projectId)}/${route}`;

  async function extractFromUrl(
    url: string,
    { chunking, chunkSize, signal }: ExtractOptions = {},
  ): Promise<string | string[]> {
    if (typeof url !== 'string' || url.trim() === '') throw invalid('URL is required');
    let data: { text?: unknown; chunks?: unknown } | null;
    try {
      const body = {
        url: url.trim(),
        ...(chunking !== undefined && { chunking }),
        ...(chunkSize !== undefined && { chunkSize }),
      };
      data = (await http.request<typeof data>({ method: 'POST', path: path('extract-from-url'), body, signal })).data;
    } catch (error) {
      throw asDataError(error);
    }
    if (chunking) {
      if (!Array.isArray(data?.chunks)) throw invalidResponse('chunks');
      return data.chunks as string[];
    }
    if (typeof data?.text !== 'string') throw invalidResponse('text');
    return data.text;
  }

  return { extractFromUrl } as DataClient;
}

export type * from './types.js';
