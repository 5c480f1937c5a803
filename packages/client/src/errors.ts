import { defaultAuthMessage } from './auth/error-codes.js';

export interface FieldAssistErrorInit {
  message: string;
  code: string;
  /** The HTTP status, 0 when no response was received. */
  status: number;
  details?: unknown;
  /** How long the server asked the client to wait before trying again (a 429's or 503's Retry-After). */
  retryAfterMs?: number;
}

/** SPEC.md §8: only these codes are worth retrying. */
const RETRYABLE_CODES = new Set(['NETWORK_ERROR', 'RATE_LIMITED']);

/**
 * The base of every error the SDK throws. `code` is the server's stable code (or a client
 * default, see `errorFromResponse`), `status` the HTTP status (0 when no response was
 * received), `details` the full parsed error body or the underlying cause, and
 * `retryable` whether trying again may help (NETWORK_ERROR and RATE_LIMITED only).
 * Subclasses say which module or which kind of failure it was.
 */
export class FieldAssistError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor({ message, code, status, details, retryAfterMs }: FieldAssistErrorInit) {
    super(message);
    this.name = 'FieldAssistError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.retryable = RETRYABLE_CODES.has(code);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * Sign-in, session and account failures, and any 401. `userMessage` is the SPEC.md §8
 * text for the code, fit to show as is; `message` is the server's or a technical one.
 */
export class FieldAssistAuthError extends FieldAssistError {
  readonly userMessage: string;
  constructor(init: FieldAssistErrorInit & { userMessage?: string }) {
    super(init);
    this.name = 'FieldAssistAuthError';
    this.userMessage = init.userMessage ?? defaultAuthMessage(init.code);
  }
}

/** No response, or an unexpected status (anything but 400 and 401). */
export class FieldAssistNetworkError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistNetworkError';
  }
}

/** Bad input, refused by the server (400) or before sending. */
export class FieldAssistValidationError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistValidationError';
  }
}

export class FieldAssistStorageError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistStorageError';
  }
}

export class FieldAssistAIError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistAIError';
  }
}

export class FieldAssistDataError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistDataError';
  }
}

export class FieldAssistRealtimeError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistRealtimeError';
  }
}

export class FieldAssistNotificationsError extends FieldAssistError {
  constructor(init: FieldAssistErrorInit) {
    super(init);
    this.name = 'FieldAssistNotificationsError';
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
 * code = `error.code` → `code` → UNAUTHORIZED (401) / VALIDATION_ERROR (400) / NETWORK_ERROR;
 * class = auth (401), validation (400), network (anything else, with its status).
 */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): FieldAssistError {
  const inner = nestedError(body);
  const errorText = stringField(body, 'error');
  const detailsText = stringField(body, 'details');
  const composed = errorText && detailsText ? `${errorText}: ${detailsText}` : (errorText ?? detailsText);
  const message = stringField(inner, 'message') ?? stringField(body, 'message') ?? composed ?? `HTTP ${status}`;
  const fallbackCode = status === 401 ? 'UNAUTHORIZED' : status === 400 ? 'VALIDATION_ERROR' : 'NETWORK_ERROR';
  const init = {
    message,
    code: stringField(inner, 'code') ?? stringField(body, 'code') ?? fallbackCode,
    status,
    details: body,
    retryAfterMs: retryAfterOf(headers),
  };
  if (status === 401) return new FieldAssistAuthError(init);
  if (status === 400) return new FieldAssistValidationError(init);
  return new FieldAssistNetworkError(init);
}

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterOf(headers?: Headers): number | undefined {
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** A request that never produced a response (fetch threw, or a success body could not be read). */
export function networkError(cause: unknown): FieldAssistNetworkError {
  const reason = cause instanceof Error ? cause.message : 'Unknown error';
  return new FieldAssistNetworkError({
    message: `Network request failed: ${reason}`,
    code: 'NETWORK_ERROR',
    status: 0,
    details: { originalError: cause },
  });
}
