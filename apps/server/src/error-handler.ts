import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError, type ErrorCode, errorStatus } from './errors.js';

/** The one error body of the platform (PLATFORM_API.md decision 2). */
export function errorBody(code: ErrorCode, message: string) {
  return { error: message, message, code };
}

// SQLSTATEs that bad input causes (PostgreSQL appendix A): answered 4xx, never 500.
const inputErrors: Record<string, [ErrorCode, string]> = {
  '23505': ['CONFLICT', 'A row with the same unique value already exists'],
  '23503': ['CONFLICT', 'The row refers to, or is referred to by, another row'],
  '23502': ['INVALID_VALUE', 'A required column is missing'],
  '23514': ['INVALID_VALUE', 'A value is not allowed by a check on the column'],
  '42P10': ['INVALID_PARAMETER', 'on_conflict must name columns with a unique constraint'],
  '25006': ['FORBIDDEN', 'A read-only batch cannot write'],
};

function fromDatabase(error: {
  code?: string;
  message: string;
  column?: string;
  constraint?: string;
}): ApiError | undefined {
  const code = error.code ?? '';
  const known = inputErrors[code];
  if (known) {
    const detail = error.column ? ` (${error.column})` : error.constraint ? ` (${error.constraint})` : '';
    return new ApiError(known[0], `${known[1]}${detail}`);
  }
  // 22: data exceptions (bad number, date or text for the column); 42: bad raw SQL.
  if (code.startsWith('22')) return new ApiError('INVALID_VALUE', `Invalid value: ${error.message}`);
  if (code.startsWith('42')) return new ApiError('INVALID_PARAMETER', `Invalid query: ${error.message}`);
  // 08: connection; 57P: the server is shutting down or restarting; 53: out of resources.
  if (
    /^(08|57P|53)/.test(code) ||
    /ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded when trying to connect/i.test(error.message)
  ) {
    return new ApiError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly');
  }
  return undefined;
}

const statusCodes: Partial<Record<number, ErrorCode>> = {
  400: 'INVALID_BODY',
  404: 'NOT_FOUND',
  405: 'INVALID_PARAMETER',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

function classify(error: FastifyError): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const path = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || '';
    return new ApiError(
      'VALIDATION_ERROR',
      `${error.validationContext ?? 'body'}${path ? `.${path}` : ''}: ${first?.message ?? 'invalid'}`,
    );
  }
  const fromDb = fromDatabase(error);
  if (fromDb) return fromDb;
  const code = error.statusCode && error.statusCode < 500 ? statusCodes[error.statusCode] : undefined;
  return code ? new ApiError(code, error.message) : undefined;
}

/** Writes every error as `{error, message, code}`; unknown errors are logged whole and answered 500. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = classify(error);
    if (!known) request.log.error({ err: error }, 'unhandled error');
    else if (known.status >= 500) request.log.warn({ err: error }, known.message);
    const status = known?.status ?? errorStatus.INTERNAL_ERROR;
    return reply
      .status(status)
      .send(errorBody(known?.code ?? 'INTERNAL_ERROR', known?.message ?? 'Internal server error'));
  });
}
