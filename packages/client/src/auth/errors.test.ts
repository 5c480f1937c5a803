import { describe, expect, it } from 'vitest';
import {
  errorFromResponse,
  FieldAssistAuthError,
  FieldAssistError,
  FieldAssistNetworkError,
  FieldAssistValidationError,
  networkError,
} from '../errors.js';
import { AUTH_ERROR_MESSAGES, defaultAuthMessage, mapServerAuthCode } from './error-codes.js';
import { authErrorFromResponse, authNetworkError, headlessOnly } from './errors.js';

describe('auth codes and messages (SPEC.md §8)', () => {
  it('has the SPEC.md text for each code, and the generic one otherwise', () => {
    expect(AUTH_ERROR_MESSAGES.WEAK_PASSWORD).toBe('Password is too weak. Please choose a stronger password.');
    expect(defaultAuthMessage('EMAIL_ALREADY_EXISTS')).toBe('An account with this email already exists.');
    expect(defaultAuthMessage('VERIFICATION_FAILED')).toBe('Verification failed. Please try again.');
    expect(defaultAuthMessage('SOMETHING_ELSE')).toBe('Authentication error. Please try again.');
    expect(defaultAuthMessage('constructor')).toBe('Authentication error. Please try again.');
  });

  it('maps server codes per PLATFORM_API.md §2.6; unknown or missing codes are NETWORK_ERROR', () => {
    expect(mapServerAuthCode('auth/wrong-password')).toBe('INVALID_CREDENTIALS');
    expect(mapServerAuthCode('auth/user-not-found')).toBe('INVALID_CREDENTIALS');
    expect(mapServerAuthCode('EMAIL_ALREADY_VERIFIED')).toBe('VERIFICATION_FAILED');
    expect(mapServerAuthCode('auth/too-many-requests')).toBe('RATE_LIMITED');
    expect(mapServerAuthCode('auth/email-already-in-use')).toBe('EMAIL_ALREADY_EXISTS');
    expect(mapServerAuthCode('auth/id-token-expired')).toBe('TOKEN_EXPIRED');
    expect(mapServerAuthCode('MAGIC_LINK_EXPIRED')).toBe('MAGIC_LINK_EXPIRED');
    expect(mapServerAuthCode('SIGNUP_NOT_ALLOWED')).toBe('NETWORK_ERROR');
    expect(mapServerAuthCode(undefined)).toBe('NETWORK_ERROR');
    expect(mapServerAuthCode(42)).toBe('NETWORK_ERROR');
  });
});

describe('auth errors from answers', () => {
  it('takes the message from error, then message, then the fallback; keeps status and body', () => {
    const body = { error: 'An account with this email already exists.', code: 'EMAIL_ALREADY_EXISTS' };
    const e = authErrorFromResponse(409, body, 'Sign up failed');
    expect(e).toBeInstanceOf(FieldAssistAuthError);
    expect(e).toBeInstanceOf(FieldAssistError);
    expect(e).toMatchObject({
      name: 'FieldAssistAuthError',
      code: 'EMAIL_ALREADY_EXISTS',
      status: 409,
      details: body,
      retryable: false,
    });
    expect(e.userMessage).toBe('An account with this email already exists.');
    expect(authErrorFromResponse(400, { message: 'm', code: 'WEAK_PASSWORD' }, 'f').message).toBe('m');
    expect(authErrorFromResponse(500, { error: { nested: true } }, 'f').message).toBe('f');
  });

  it('marks only NETWORK_ERROR and RATE_LIMITED retryable', () => {
    expect(authErrorFromResponse(429, { code: 'RATE_LIMITED' }, 'f').retryable).toBe(true);
    expect(authErrorFromResponse(503, {}, 'f')).toMatchObject({ code: 'NETWORK_ERROR', retryable: true });
    expect(authErrorFromResponse(401, { code: 'INVALID_CREDENTIALS' }, 'f').retryable).toBe(false);
  });

  it('uses the caller’s status rule when the body has no code (account delete)', () => {
    const byStatus = (s: number) => (s === 404 ? 'USER_NOT_FOUND' : 'TOKEN_EXPIRED');
    expect(authErrorFromResponse(404, {}, 'f', byStatus).code).toBe('USER_NOT_FOUND');
    expect(authErrorFromResponse(404, { code: 'RATE_LIMITED' }, 'f', byStatus).code).toBe('RATE_LIMITED');
  });

  it('a failed fetch is NETWORK_ERROR "Network request failed: ..." with status 0', () => {
    const e = authNetworkError(new TypeError('fetch failed'));
    expect(e).toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
      message: 'Network request failed: fetch failed',
      retryable: true,
    });
    expect(e.userMessage).toBe('Network error. Please check your connection and try again.');
  });

  it('headless-only methods say so with INVALID_CREDENTIALS', () => {
    expect(headlessOnly('signUp')).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: 'signUp is only available in headless mode',
    });
  });
});

describe('HTTP core mapping', () => {
  it('401 → auth error, 400 → validation error, anything else → network error with its status', () => {
    const unauthorized = errorFromResponse(401, {});
    expect(unauthorized).toBeInstanceOf(FieldAssistAuthError);
    expect(unauthorized).toMatchObject({ code: 'UNAUTHORIZED', status: 401, retryable: false });
    expect(errorFromResponse(400, { code: 'UNKNOWN_TABLE' })).toBeInstanceOf(FieldAssistValidationError);
    const forbidden = errorFromResponse(403, { error: 'No', code: 'FORBIDDEN' });
    expect(forbidden).toBeInstanceOf(FieldAssistNetworkError);
    expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN', retryable: false });
    expect(errorFromResponse(429, { code: 'RATE_LIMITED' }).retryable).toBe(true);
    expect(networkError(new Error('down'))).toMatchObject({
      name: 'FieldAssistNetworkError',
      status: 0,
      retryable: true,
    });
  });
});
