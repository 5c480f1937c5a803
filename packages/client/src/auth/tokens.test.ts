import { describe, expect, it } from 'vitest';
import {
  isAccessTokenExpired,
  isRefreshTokenExpired,
  parseStoredTokens,
  refreshDelayMs,
  toTokenSet,
} from './tokens.js';
import type { TokenSet } from './types.js';

const T0 = 1_700_000_000;
const set = (overrides: Partial<TokenSet> = {}): TokenSet => ({
  access_token: 'at',
  refresh_token: 'rt',
  token_type: 'Bearer',
  expires_in: 900,
  refresh_expires_in: 2_592_000,
  issued_at: T0,
  ...overrides,
});

describe('access-token expiry (30 s early)', () => {
  it('is valid until 30 s before issued_at + expires_in', () => {
    expect(isAccessTokenExpired(set(), T0)).toBe(false);
    expect(isAccessTokenExpired(set(), T0 + 869)).toBe(false);
    expect(isAccessTokenExpired(set(), T0 + 870)).toBe(true);
  });

  it('is expired without tokens or issued_at, and never without expires_in', () => {
    expect(isAccessTokenExpired(null, T0)).toBe(true);
    expect(isAccessTokenExpired(set({ issued_at: 0 }), T0)).toBe(true);
    expect(isAccessTokenExpired(set({ expires_in: undefined }), T0 + 10_000_000)).toBe(false);
  });
});

describe('refresh-token expiry', () => {
  it('lasts exactly refresh_expires_in, with no early margin', () => {
    expect(isRefreshTokenExpired(set(), T0 + 2_591_999)).toBe(false);
    expect(isRefreshTokenExpired(set(), T0 + 2_592_000)).toBe(true);
  });

  it('counts as expired without a refresh token or its lifetime', () => {
    expect(isRefreshTokenExpired(set({ refresh_token: undefined }), T0)).toBe(true);
    expect(isRefreshTokenExpired(set({ refresh_expires_in: undefined }), T0)).toBe(true);
    expect(isRefreshTokenExpired(null, T0)).toBe(true);
  });
});

describe('proactive refresh delay', () => {
  it('is due when the 30 s window starts', () => {
    expect(refreshDelayMs(set(), T0 * 1000)).toBe(870_000);
    expect(refreshDelayMs(set(), T0 * 1000 + 860_000)).toBe(10_000);
  });

  it('schedules nothing when due within 5 s, without a refresh token or without a lifetime', () => {
    expect(refreshDelayMs(set(), T0 * 1000 + 866_000)).toBeNull();
    expect(refreshDelayMs(set({ expires_in: 20 }), T0 * 1000)).toBeNull(); // short tokens cannot loop
    expect(refreshDelayMs(set({ refresh_token: undefined }), T0 * 1000)).toBeNull();
    expect(refreshDelayMs(set({ expires_in: undefined }), T0 * 1000)).toBeNull();
  });
});

describe('reading token sets', () => {
  it('keeps the five token fields, sets issued_at client-side and drops the rest', () => {
    const body = {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'Bearer',
      expires_in: 900,
      refresh_expires_in: 60,
      issued_at: 5,
      user: { id: 'u' },
    };
    expect(toTokenSet(body, T0)).toEqual({
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'Bearer',
      expires_in: 900,
      refresh_expires_in: 60,
      issued_at: T0,
    });
    expect(toTokenSet(body, T0, true)?.issued_at).toBe(5);
    expect(toTokenSet({ access_token: 'a' }, T0)).toEqual({ access_token: 'a', token_type: 'Bearer', issued_at: T0 });
    expect(toTokenSet({ refresh_token: 'r' }, T0)).toBeNull();
    expect(toTokenSet('nope', T0)).toBeNull();
  });

  it('parses stored JSON, keeping its issued_at, and survives garbage', () => {
    expect(parseStoredTokens(JSON.stringify(set({ issued_at: 42 })), T0)?.issued_at).toBe(42);
    expect(parseStoredTokens('{not json', T0)).toBeNull();
    expect(parseStoredTokens(null, T0)).toBeNull();
  });
});
