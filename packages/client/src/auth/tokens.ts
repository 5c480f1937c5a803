// Token-set arithmetic (PLATFORM_API.md §2.1, SPEC.md §9). Pure: every function takes `now`.
import type { TokenSet } from './types.js';

/** The access token counts as expired this many seconds early. */
export const EXPIRY_BUFFER_SECONDS = 30;
/** Lifetimes assumed for tokens delivered in a URL (§2.3). */
export const URL_ACCESS_LIFETIME_SECONDS = 900;
export const URL_REFRESH_LIFETIME_SECONDS = 2_592_000;
/** A proactive refresh closer than this is left to `getValidToken`, so short-lived tokens cannot loop. */
const MIN_REFRESH_DELAY_MS = 5_000;
const MAX_TIMER_MS = 2_147_483_647;

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function numberField(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Reads a token set from a server answer, a message or storage: exactly the five token
 * fields plus `issued_at` = `now`, or the source's own when `keepIssuedAt` (storage, a
 * parent window). Null without an access token.
 */
export function toTokenSet(source: unknown, now: number, keepIssuedAt = false): TokenSet | null {
  if (typeof source !== 'object' || source === null) return null;
  const s = source as Record<string, unknown>;
  if (typeof s.access_token !== 'string' || s.access_token === '') return null;
  const tokens: TokenSet = {
    access_token: s.access_token,
    token_type: typeof s.token_type === 'string' ? s.token_type : 'Bearer',
    issued_at: (keepIssuedAt ? numberField(s.issued_at) : undefined) ?? now,
  };
  const expiresIn = numberField(s.expires_in);
  if (expiresIn !== undefined) tokens.expires_in = expiresIn;
  if (typeof s.refresh_token === 'string' && s.refresh_token !== '') tokens.refresh_token = s.refresh_token;
  const refreshExpiresIn = numberField(s.refresh_expires_in);
  if (refreshExpiresIn !== undefined) tokens.refresh_expires_in = refreshExpiresIn;
  return tokens;
}

/** The JSON stored under `blink_tokens_{projectId}`, or null when absent or unreadable. */
export function parseStoredTokens(raw: string | null | undefined, now: number): TokenSet | null {
  if (!raw) return null;
  try {
    return toTokenSet(JSON.parse(raw), now, true);
  } catch {
    return null;
  }
}

/** Expired when `now >= issued_at + expires_in - 30`; a set without `expires_in` never expires here. */
export function isAccessTokenExpired(tokens: TokenSet | null, now: number): boolean {
  if (!tokens?.issued_at) return true;
  if (tokens.expires_in === undefined) return false;
  return now >= tokens.issued_at + tokens.expires_in - EXPIRY_BUFFER_SECONDS;
}

/** Expired (or unusable) without a refresh token, `issued_at` or `refresh_expires_in`. */
export function isRefreshTokenExpired(tokens: TokenSet | null, now: number): boolean {
  if (!tokens?.refresh_token || !tokens.issued_at || !tokens.refresh_expires_in) return true;
  return now >= tokens.issued_at + tokens.refresh_expires_in;
}

/**
 * Milliseconds until the proactive refresh, due when the access token enters its 30 s
 * early-expiry window. Null when there is nothing to schedule (no refresh token, no
 * lifetime, or due within 5 s, which the next `getValidToken` handles).
 */
export function refreshDelayMs(tokens: TokenSet | null, nowMs: number): number | null {
  if (!tokens?.refresh_token || tokens.expires_in === undefined || !tokens.issued_at) return null;
  const dueMs = (tokens.issued_at + tokens.expires_in - EXPIRY_BUFFER_SECONDS) * 1000;
  const delay = dueMs - nowMs;
  if (!Number.isFinite(delay) || delay < MIN_REFRESH_DELAY_MS) return null;
  return Math.min(delay, MAX_TIMER_MS);
}
