// The internal HTTP core every SDK module shares (PLATFORM_API.md §1): URL building,
// headers, credentials, response decoding by Content-Type and error mapping.
import { errorFromResponse, FieldAssistError, networkError } from './errors.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;
type MaybePromise<T> = T | Promise<T>;
export type AccessTokenGetter = () => MaybePromise<string | null | undefined>;

export interface HttpCoreOptions {
  baseUrl: string;
  secretKey?: string;
  fetch?: FetchLike;
  getAccessToken?: AccessTokenGetter;
  /** Asked once for a fresh token after a 401 on a request sent with a user token (§1.6). */
  refreshAccessToken?: () => Promise<string | null | undefined>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpRequest {
  method?: HttpMethod;
  /** Path below `/api`, e.g. `/db/{pid}/rest/v1/jobs`. */
  path: string;
  /** Set with URLSearchParams, so values are form-encoded (space → `+`), each key once (§1.3). */
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpResponse<T = unknown> {
  data: T;
  status: number;
  headers: Headers;
}

export interface HttpCore {
  readonly baseUrl: string;
  /** Absolute URL `${baseUrl}/api${path}?query`. */
  url(path: string, query?: Record<string, string>): string;
  /** Sends one request; resolves with the decoded body or throws a FieldAssistError. */
  request<T = unknown>(request: HttpRequest): Promise<HttpResponse<T>>;
}

/** Bodies fetch sends as they are, letting it pick the Content-Type (multipart uploads). */
function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams
  );
}

/** §1.4: JSON if the type says so, text for `text/*`, a Blob for anything else (204 included). */
async function decodeSuccess(response: Response): Promise<unknown> {
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('application/json')) return response.json();
  if (contentType.includes('text/')) return response.text();
  return response.blob();
}

/** §1.5: JSON body when typed as JSON, otherwise the text wrapped as `{ message }`. */
async function decodeError(response: Response): Promise<unknown> {
  try {
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('application/json')) return await response.json();
    return { message: await response.text() };
  } catch {
    return { message: 'Unknown error occurred' };
  }
}

export function createHttpCore(options: HttpCoreOptions): HttpCore {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const url = (path: string, query?: Record<string, string>): string => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) params.set(key, value);
    const search = params.toString();
    return `${baseUrl}/api${path}${search ? `?${search}` : ''}`;
  };

  const send = (request: HttpRequest, target: string, token: string | null | undefined) => {
    const method = request.method ?? 'GET';
    const raw = isRawBody(request.body);
    const headers: Record<string, string> = raw ? {} : { 'Content-Type': 'application/json' };
    const credential = options.secretKey ?? token;
    if (credential) headers.Authorization = `Bearer ${credential}`;
    Object.assign(headers, request.headers);
    const init: RequestInit = { method, headers, signal: request.signal };
    if (method !== 'GET' && request.body !== undefined) {
      init.body = raw || typeof request.body === 'string' ? (request.body as BodyInit) : JSON.stringify(request.body);
    }
    return fetchImpl(target, init);
  };

  const request = async <T>(req: HttpRequest): Promise<HttpResponse<T>> => {
    const target = url(req.path, req.query);
    try {
      const token = options.secretKey ? undefined : await options.getAccessToken?.();
      let response = await send(req, target, token);
      if (response.status === 401 && token && options.refreshAccessToken) {
        const fresh = await options.refreshAccessToken();
        if (fresh) response = await send(req, target, fresh);
      }
      if (!response.ok) throw errorFromResponse(response.status, await decodeError(response), response.headers);
      const data = (await decodeSuccess(response)) as T;
      return { data, status: response.status, headers: response.headers };
    } catch (error) {
      if (error instanceof FieldAssistError) throw error;
      throw networkError(error);
    }
  };

  return { baseUrl, url, request };
}
