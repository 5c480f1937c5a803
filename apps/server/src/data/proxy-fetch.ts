import { ApiError } from '../errors.js';
import { outboundHeaders, presentHeaders } from './proxy-fetch-headers.js';
import { safeFetch, type SafeFetchOptions, vetUrl } from './safe-fetch.js';
import { decodeText } from './text-decode.js';

export const proxyMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

type QueryValue = string | number | boolean;

export interface ProxyRequest {
  url: string;
  method?: (typeof proxyMethods)[number];
  headers?: Record<string, string>;
  body?: unknown;
  query?: Record<string, QueryValue | QueryValue[]>;
}

/** PLATFORM_API.md section 6 `fetch`: the target's answer, whatever its status. */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON for a JSON response, text for a textual one, base64 for anything else. */
  body: unknown;
  durationMs: number;
}

const placeholder = /\{\{\s*[\w.-]+\s*\}\}/;
const textualType = /^(text\/|application\/(xml|javascript|x-www-form-urlencoded|[\w.+-]*\+xml)\b)/i;

/**
 * The platform fills `{{secret_name}}` from a project secret store. FieldAssist has none, so a
 * placeholder is refused rather than sent as it is: the target would see the literal
 * `{{name}}` where the app meant a key, and answer with a puzzling 401.
 */
function refuseSecretPlaceholders(request: ProxyRequest) {
  const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? '');
  const texts = [
    request.url,
    ...Object.values(request.headers ?? {}),
    ...Object.values(request.query ?? {})
      .flat()
      .map(String),
    body,
  ];
  const found = texts.map((text) => placeholder.exec(text)?.[0]).find(Boolean);
  if (found)
    throw new ApiError(
      'SECRETS_NOT_SUPPORTED',
      `This server has no secret store, so ${found} cannot be filled in: send the value itself`,
    );
}

function targetUrl({ url, query }: ProxyRequest): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'Invalid URL format');
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    target.searchParams.delete(name);
    for (const item of [value].flat()) target.searchParams.append(name, String(item));
  }
  return target;
}

/** The body to send: a string as it is, anything else as JSON (with that content type unless one was given). */
function outgoing(request: ProxyRequest): { method: string; headers: Record<string, string>; body?: string } {
  const method = request.method ?? 'GET';
  const headers: Record<string, string> = {
    'user-agent': 'FieldAssist data proxy',
    ...outboundHeaders(request.headers),
  };
  if (request.body === undefined || request.body === null) return { method, headers };
  if (method === 'GET' || method === 'HEAD')
    throw new ApiError('VALIDATION_ERROR', `body: a ${method} request cannot have a body`);
  const isText = typeof request.body === 'string';
  headers['content-type'] ??= isText ? 'text/plain; charset=utf-8' : 'application/json';
  return { method, headers, body: isText ? (request.body as string) : JSON.stringify(request.body) };
}

function presentBody(method: string, contentType: string | undefined, bytes: Buffer): unknown {
  if (method === 'HEAD' || bytes.length === 0) return '';
  const type = contentType?.split(';')[0]?.trim() ?? '';
  if (/[/+]json$/i.test(type)) {
    const text = decodeText(bytes);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return textualType.test(type) ? decodeText(bytes) : bytes.toString('base64');
}

/**
 * Sends the caller's request to a public http(s) URL through safeFetch (every hop vetted,
 * size and time capped) and returns the target's status, headers and body. Any signed-in caller.
 * Throws SECRETS_NOT_SUPPORTED, VALIDATION_ERROR, and safeFetch's errors.
 */
export async function proxyFetch(request: ProxyRequest, fetchOptions: SafeFetchOptions = {}): Promise<ProxyResponse> {
  refuseSecretPlaceholders(request);
  const url = targetUrl(request);
  const sent = outgoing(request);
  const started = performance.now();
  const answer = await safeFetch(url.href, { ...fetchOptions, ...sent, passStatus: true });
  return {
    status: answer.status,
    headers: presentHeaders(answer.headers),
    body: presentBody(sent.method, answer.contentType, answer.bytes),
    durationMs: Math.round(performance.now() - started),
  };
}

/**
 * Starts proxyFetch without waiting for it (`async: true`). What can be judged at once (the
 * body, placeholders, the first hop's address) is refused at once; at most `maxRunning` run
 * together, beyond that SERVICE_UNAVAILABLE. Failures of the request itself are only logged.
 */
export function createBackgroundFetcher({
  maxRunning = 8,
  log,
}: {
  maxRunning?: number;
  log: (message: string) => void;
}) {
  let running = 0;
  return async (request: ProxyRequest, fetchOptions: SafeFetchOptions = {}) => {
    refuseSecretPlaceholders(request);
    const url = targetUrl(request);
    outgoing(request);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new ApiError('URL_NOT_ALLOWED', 'Only http and https URLs are allowed');
    if (url.username || url.password)
      throw new ApiError('URL_NOT_ALLOWED', 'URLs with a user name or password are not allowed');
    await vetUrl(url, fetchOptions);
    if (running >= maxRunning)
      throw new ApiError('SERVICE_UNAVAILABLE', 'Too many background requests are running; try again shortly');
    running++;
    proxyFetch(request, fetchOptions)
      .then((answer) => log(`background fetch ${url.host}: HTTP ${answer.status} in ${answer.durationMs} ms`))
      .catch((error: Error) => log(`background fetch ${url.host} failed: ${error.message}`))
      .finally(() => running--);
    return { status: 'triggered' as const, message: 'The request is running in the background' };
  };
}
