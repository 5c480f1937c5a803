import type { IncomingHttpHeaders } from 'node:http';

// Hop-by-hop headers (RFC 9110 section 7.6.1) describe one connection, not the request;
// Host, Content-Length and Accept-Encoding are set by the outbound client itself (asking for
// compression would hand back bytes nobody decompresses); and the forwarding headers would
// let a caller speak for our server's network to the target.
const droppedRequestHeaders = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  'accept-encoding',
  'forwarded',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
]);
const droppedResponseHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The caller's headers that may go to the target. Cookie and Authorization do go: the caller
 * wrote them for that site, and this server holds no cookies or credentials of its own to
 * leak. safeFetch drops them when a redirect leaves the origin.
 */
export function outboundHeaders(headers: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !droppedRequestHeaders.has(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
}

/** The target's response headers as one string each (repeated ones joined), without hop-by-hop ones. */
export function presentHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const presented: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || droppedResponseHeaders.has(name)) continue;
    presented[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return presented;
}
