import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

export type Role = 'admin' | 'technician' | 'manager' | 'viewer';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every /api request by the onRequest hook in app.ts. */
    caller: Caller;
  }
}

/** Who is calling: the server's service key, a signed-in user, or nobody. */
export type Caller =
  | { kind: 'service' }
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; email: string; role: Role | null };

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Reads the caller from `Authorization: Bearer ...`. The service key is the only
 * credential until sign-in exists; any other bearer is refused rather than ignored.
 */
export function resolveCaller(request: FastifyRequest, serviceKey: string): Caller {
  const header = request.headers.authorization;
  if (!header) return { kind: 'anonymous' };
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError('INVALID_TOKEN', 'Authorization header must be "Bearer <token>"');
  if (sameSecret(match[1]!, serviceKey)) return { kind: 'service' };
  throw new ApiError('INVALID_TOKEN', 'Invalid or expired token');
}
