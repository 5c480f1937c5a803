/**
 * The one error type the SDK throws. `code` is the server's stable code (or a client
 * default, see `errorFromResponse`), `status` the HTTP status (0 when no response was
 * received) and `details` the full parsed error body or the underlying cause.
 */
export class FieldAssistError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor({ message, code, status, details }: { message: string; code: string; status: number; details?: unknown }) {
    super(message);
    this.name = 'FieldAssistError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** Type guard, handy in UI code: `if (isFieldAssistError(e) && e.code === 'NOT_FOUND')`. */
export function isFieldAssistError(value: unknown): value is FieldAssistError {
  return value instanceof FieldAssistError;
}

function stringField(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function nestedError(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>).error : undefined;
}

/**
 * Builds the error for a non-2xx response from its decoded body (PLATFORM_API.md §1.5):
 * message = `error.message` → `message` → `error` (+ ": " + `details`) → "HTTP <status>";
 * code = `error.code` → `code` → UNAUTHORIZED (401) / VALIDATION_ERROR (400) / NETWORK_ERROR.
 */
export function errorFromResponse(status: number, body: unknown): FieldAssistError {
  const inner = nestedError(body);
  const errorText = stringField(body, 'error');
  const detailsText = stringField(body, 'details');
  const composed = errorText && detailsText ? `${errorText}: ${detailsText}` : (errorText ?? detailsText);
  const message = stringField(inner, 'message') ?? stringField(body, 'message') ?? composed ?? `HTTP ${status}`;
  const fallbackCode = status === 401 ? 'UNAUTHORIZED' : status === 400 ? 'VALIDATION_ERROR' : 'NETWORK_ERROR';
  const code = stringField(inner, 'code') ?? stringField(body, 'code') ?? fallbackCode;
  return new FieldAssistError({ message, code, status, details: body });
}

/** A request that never produced a response (fetch threw, or a success body could not be read). */
export function networkError(cause: unknown): FieldAssistError {
  const reason = cause instanceof Error ? cause.message : 'Unknown error';
  return new FieldAssistError({
    message: `Network request failed: ${reason}`,
    code: 'NETWORK_ERROR',
    status: 0,
    details: { originalError: cause },
  });
}
