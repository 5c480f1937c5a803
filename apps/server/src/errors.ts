/** Every error code the API answers with, and its HTTP status. One table, one writer (error-handler.ts). */
export const errorStatus = {
  VALIDATION_ERROR: 400,
  INVALID_BODY: 400,
  INVALID_PARAMETER: 400,
  INVALID_FILTER: 400,
  INVALID_VALUE: 400,
  UNKNOWN_TABLE: 400,
  UNKNOWN_COLUMN: 400,
  FILTER_REQUIRED: 400,
  WEAK_PASSWORD: 400,
  INVALID_EMAIL: 400,
  VERIFICATION_FAILED: 400,
  MAGIC_LINK_EXPIRED: 400,
  REDIRECT_NOT_ALLOWED: 400,
  URL_NOT_ALLOWED: 400,
  UNSUPPORTED_FILE_TYPE: 400,
  SECRETS_NOT_SUPPORTED: 400,
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  SIGNUP_NOT_ALLOWED: 403,
  UNVERIFIED_SENDER: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  PROJECT_NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_ALREADY_EXISTS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EMPTY_DOCUMENT: 422,
  DOCUMENT_ENCRYPTED: 422,
  NO_TEXT_LAYER: 422,
  UNREADABLE_DOCUMENT: 422,
  DOCUMENT_TOO_COMPLEX: 422,
  NOT_AN_HTML_PAGE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  FETCH_FAILED: 502,
  AI_PROVIDER_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
  STORAGE_FULL: 507,
  SEARCH_NOT_CONFIGURED: 503,
  SCREENSHOTS_UNAVAILABLE: 503,
  FETCH_TIMEOUT: 504,
  AI_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** The one error type services throw; the error handler turns it into `{error, message, code}`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

/** A request over a rate limit, in SPEC.md's words (the plugin's limiter and our own extra counts). */
export const tooManyAttempts = () =>
  new ApiError('RATE_LIMITED', 'Too many attempts. Please wait a moment and try again.');
