import { lookup } from 'node:dns/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { ApiError } from '../errors.js';
import { isPublicAddress } from './address-policy.js';

export interface SafeFetchOptions {
  /** For the whole fetch: every hop, connection and body. */
  timeoutMs?: number;
  /** Largest body accepted; the download is cut off beyond it. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Whether the server may connect to this address and port. Default: public addresses only. */
  isAllowedAddress?: (target: { address: string; port: number }) => boolean;
  /** Every address of a host name. Default: the system resolver (dns.lookup, all addresses). */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** The request to send (the data proxy and the screenshot browser): default a bare GET. */
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answer a final status of 300 or more instead of throwing FETCH_FAILED. */
  passStatus?: boolean;
}

export interface FetchedFile {
  /** The URL that answered, after redirects. */
  url: string;
  bytes: Buffer;
  contentType?: string;
  fileName: string;
  status: number;
  headers: IncomingHttpHeaders;
}

interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
const notAllowed = () => new ApiError('URL_NOT_ALLOWED', 'This address is not allowed');
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

async function systemResolve(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** Parses a user-supplied URL: http or https, no credentials. */
export function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'Invalid URL format');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ApiError('URL_NOT_ALLOWED', 'Only http and https URLs are allowed');
  if (url.username || url.password)
    throw new ApiError('URL_NOT_ALLOWED', 'URLs with a user name or password are not allowed');
  return url;
}

/**
 * Resolves the URL's host and returns its addresses if every one of them may be reached;
 * one forbidden address refuses the whole host (DNS answers can be mixed on purpose).
 */
export async function vetUrl(url: URL, options: SafeFetchOptions = {}): Promise<string[]> {
  const isAllowed = options.isAllowedAddress ?? (({ address }) => isPublicAddress(address));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    addresses = await (options.resolveHost ?? systemResolve)(host).catch(() => []);
    if (addresses.length === 0) throw new ApiError('FETCH_FAILED', `Could not resolve ${host}`);
  }
  if (!addresses.every((address) => isAllowed({ address, port }))) throw notAllowed();
  return addresses;
}

/** A lookup for the connection that answers only with the addresses vetted for that host. */
function pinnedLookup(pinned: Map<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const entries = (pinned.get(hostname.toLowerCase()) ?? [])
      .map((address) => ({ address, family: isIP(address) }))
      .filter((entry) => !wanted || entry.family === wanted);
    if (entries.length === 0)
      return callback(Object.assign(new Error(`${hostname} was not vetted`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, list: typeof entries) => void)(null, entries);
    callback(null, entries[0]!.address, entries[0]!.family);
  };
}

function fileNameOf(url: URL, disposition: string | undefined): string {
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition ?? '')?.[1];
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition ?? '')?.[1];
  const fromPath = url.pathname.split('/').filter(Boolean).pop();
  const name = star ?? plain ?? fromPath ?? 'download';
  try {
    return decodeURIComponent(name.trim());
  } catch {
    return name.trim();
  }
}

const without = (headers: Record<string, string>, names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));

/** What the next hop sends, as browsers do it (Fetch standard, HTTP-redirect fetch). */
function redirected(status: number, sent: OutgoingRequest, from: URL, to: URL): OutgoingRequest {
  let { method, headers, body } = sent;
  if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
    method = 'GET';
    body = undefined;
    headers = without(headers, [
      'content-type',
      'content-length',
      'content-encoding',
      'content-language',
      'content-location',
    ]);
  }
  // Credentials the caller meant for one origin are not handed to another.
  if (from.origin !== to.origin) headers = without(headers, ['authorization', 'cookie', 'proxy-authorization']);
  return { method, headers, body };
}

type Response = Awaited<ReturnType<typeof request>>;

/** Drops a body we will not read (undici reports the abort as an error event: ignore it). */
function discard(response: Response) {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

async function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', `The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  if (Number(response.headers['content-length']) > maxBytes) {
    discard(response);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      discard(response);
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Downloads a user-supplied http(s) URL without letting it reach the server's own network:
 * each hop's host is resolved and every address checked (vetUrl), the connection goes to
 * those vetted addresses only (no second DNS answer can slip in), redirects are followed by
 * hand and checked again, and time and size are capped. Sends no cookies or credentials
 * beyond the caller's own `headers`, and those not past a redirect to another origin.
 * Throws URL_NOT_ALLOWED (400), FETCH_FAILED (502), FETCH_TIMEOUT (504), PAYLOAD_TOO_LARGE (413).
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions = {}): Promise<FetchedFile> {
  const { timeoutMs = 20_000, maxBytes = 50 * 1024 * 1024, maxRedirects = 5 } = options;
  const signal = AbortSignal.timeout(timeoutMs);
  const pinned = new Map<string, string[]>();
  const agent = new Agent({ connect: { lookup: pinnedLookup(pinned) } });
  let url = parseTarget(rawUrl);
  const headers = Object.fromEntries(
    Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  let sent: OutgoingRequest = {
    method: options.method ?? 'GET',
    headers: { 'user-agent': 'FieldAssist document fetcher', accept: '*/*', ...headers },
    body: options.body,
  };
  try {
    for (let hop = 0; ; hop++) {
      pinned.set(url.hostname.toLowerCase(), await vetUrl(url, options));
      const response = await request(url, { dispatcher: agent, signal, ...sent });
      const location = response.headers.location;
      if (redirectStatuses.has(response.statusCode) && typeof location === 'string') {
        discard(response);
        if (hop >= maxRedirects)
          throw new ApiError('FETCH_FAILED', `The URL redirected more than ${maxRedirects} times`);
        const next = parseTarget(new URL(location, url).href);
        sent = redirected(response.statusCode, sent, url, next);
        url = next;
        continue;
      }
      if (response.statusCode >= 300 && !options.passStatus) {
        discard(response);
        throw new ApiError('FETCH_FAILED', `The URL answered HTTP ${response.statusCode}`);
      }
      const bytes = await readLimited(response, maxBytes);
      const contentType = response.headers['content-type'];
      const disposition = response.headers['content-disposition'];
      return {
        url: url.href,
        bytes,
        contentType: typeof contentType === 'string' ? contentType : undefined,
        fileName: fileNameOf(url, typeof disposition === 'string' ? disposition : undefined),
        status: response.statusCode,
        headers: response.headers,
      };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (signal.aborted) throw new ApiError('FETCH_TIMEOUT', `The URL did not answer within ${duration(timeoutMs)}`);
    throw new ApiError(
      'FETCH_FAILED',
      `Could not fetch the URL from ${url.host} (${(error as { code?: string }).code ?? (error as Error).message})`,
    );
  } finally {
    void agent.destroy();
  }
}
