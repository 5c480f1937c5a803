import type { FastifyRequest } from 'fastify';

// Query parameters that carry credentials: the realtime socket's access_token, sign-in link
// tokens and OAuth codes. Their values never reach the log.
const SECRET_PARAMS = /^(access_token|refresh_token|id_token|token|code|password|secret|key|api_key)$/i;

/** Masks credential values in a URL's query string; the path and other parameters stay readable. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && SECRET_PARAMS.test(decodeURIComponentSafe(name)) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * What a request log line says about the request (pino's `req`): no headers at all, so the
 * Authorization header and cookies are never written, and a URL without its credentials.
 * The request id is on every line of the request as `reqId`.
 */
export function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
}
