// Building FieldAssistAuthError from auth answers and client-side checks (PLATFORM_API.md §2.6).
import { FieldAssistAuthError } from '../errors.js';
import { mapServerAuthCode, type AuthErrorCode } from './error-codes.js';

/** A client-side auth failure (no response involved, so status 0). */
export function authError(code: AuthErrorCode, message: string, details?: unknown): FieldAssistAuthError {
  return new FieldAssistAuthError({ code, message, status: 0, details });
}

/**
 * A non-2xx auth answer: code = the server's `code` mapped per §2.6 (unknown or missing →
 * NETWORK_ERROR, or `codeWithoutServerCode` when given), message = the server's `error`
 * string, else its `message`, else `fallback`. `status` is the real HTTP status and
 * `details` the body, so the server's own code stays readable.
 */
export function authErrorFromResponse(
  status: number,
  body: unknown,
  fallback: string,
  codeWithoutServerCode?: (status: number) => AuthErrorCode,
): FieldAssistAuthError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const code =
    fields.code === undefined && codeWithoutServerCode ? codeWithoutServerCode(status) : mapServerAuthCode(fields.code);
  return new FieldAssistAuthError({
    code,
    message: text(fields.error) ?? text(fields.message) ?? fallback,
    status,
    details: body,
  });
}

/** The request never got an answer (fetch threw, or the success body was unreadable). */
export function authNetworkError(cause: unknown): FieldAssistAuthError {
  const reason = cause instanceof Error ? cause.message : 'Unknown error';
  return authError('NETWORK_ERROR', `Network request failed: ${reason}`, { originalError: cause });
}

/** SPEC.md §5: sign-up and sign-in calls in managed mode. */
export function headlessOnly(method: string): FieldAssistAuthError {
  return authError('INVALID_CREDENTIALS', `${method} is only available in headless mode`);
}

/** An authenticated call made while signed out. */
export function noAccessToken(): FieldAssistAuthError {
  return authError('TOKEN_EXPIRED', 'No access token available');
}
