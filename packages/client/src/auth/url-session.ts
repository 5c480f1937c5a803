// Sessions and one-time tokens delivered in the page URL (PLATFORM_API.md §2.3, §2.5 #9).
// Pure string functions; the caller reads `location` and calls `history.replaceState`.
import { URL_ACCESS_LIFETIME_SECONDS, URL_REFRESH_LIFETIME_SECONDS } from './tokens.js';
import type { TokenSet } from './types.js';

/** Where a tab keeps the state of the sign-in it started (login or a provider), until the return. */
export const OAUTH_STATE_KEY = 'blink_oauth_state';

/** The query parameters removed from the address bar once URL tokens are taken. */
export const URL_AUTH_PARAMS = [
  'access_token',
  'refresh_token',
  'token_type',
  'project_id',
  'expires_in',
  'refresh_expires_in',
  'state',
  'code',
  'error',
  'error_description',
] as const;

/**
 * The token set in a query string (`?access_token=...&refresh_token=...`), or null.
 * Lifetimes in the URL are ignored: access 900 s, refresh 30 days (only with a refresh token).
 */
export function tokensFromSearch(search: string, now: number): TokenSet | null {
  const params = new URLSearchParams(search);
  const accessToken = params.get('access_token');
  if (!accessToken) return null;
  const refreshToken = params.get('refresh_token');
  const tokens: TokenSet = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: URL_ACCESS_LIFETIME_SECONDS,
    issued_at: now,
  };
  if (refreshToken) {
    tokens.refresh_token = refreshToken;
    tokens.refresh_expires_in = URL_REFRESH_LIFETIME_SECONDS;
  }
  return tokens;
}

/** `href` without the given query parameters; path, other parameters and hash are kept. */
export function withoutParams(href: string, names: readonly string[]): string {
  const url = new URL(href);
  for (const name of names) url.searchParams.delete(name);
  return url.toString();
}

/** The magic-link token of a query string: `magic_token`, else `token`, with the name it came from. */
export function magicTokenFromSearch(search: string): { token: string; param: string } | null {
  const params = new URLSearchParams(search);
  for (const param of ['magic_token', 'token']) {
    const token = params.get(param);
    if (token) return { token, param };
  }
  return null;
}

/** `count` random bytes as lowercase hex (OAuth state: 16 bytes → 32 chars). */
export function randomHex(count: number): string {
  const bytes = new Uint8Array(count);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
