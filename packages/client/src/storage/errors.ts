// How storage failures reach the app: the SDK's classes, with the server's code and message.
import {
  FieldAssistAuthError,
  FieldAssistError,
  FieldAssistStorageError,
  FieldAssistValidationError,
  networkError,
} from '../errors.js';

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const invalid = (message: string, code = 'VALIDATION_ERROR') =>
  new FieldAssistValidationError({ message, code, status: 0 });

/** SPEC.md section 5's wording, the size in MB with two decimals (the server words it the same). */
export const tooLarge = (bytes: number) =>
  invalid(
    `File size (${(bytes / 1024 / 1024).toFixed(2)} MB) exceeds maximum allowed size (50MB)`,
    'PAYLOAD_TOO_LARGE',
  );

export const invalidResponse = (what: string) =>
  new FieldAssistStorageError({
    message: `Invalid response format: missing ${what}`,
    code: 'INVALID_RESPONSE',
    status: 0,
  });

/**
 * 400 stays a validation error, 401 an auth error and "no response" a network error;
 * every other status (403, 404, 409, 413, 5xx) becomes FieldAssistStorageError with the
 * server's code and message, e.g. CONFLICT 'File already exists. Set upsert: true to overwrite.'
 */
export function asStorageError(error: unknown): FieldAssistError {
  if (!(error instanceof FieldAssistError)) return networkError(error);
  if (
    error instanceof FieldAssistAuthError ||
    error instanceof FieldAssistValidationError ||
    error instanceof FieldAssistStorageError ||
    error.status === 0
  )
    return error;
  return new FieldAssistStorageError({
    message: error.message,
    code: error.code,
    status: error.status,
    details: error.details,
    retryAfterMs: error.retryAfterMs,
  });
}
