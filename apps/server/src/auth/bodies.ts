// The bodies of the auth routes (PLATFORM_API.md section 2.5), read by zod at the boundary. A
// missing or wrongly typed field reads as empty, so the flow refuses it with its own code and text
// (INVALID_EMAIL, WEAK_PASSWORD, VERIFICATION_FAILED, ...), as the client SDK expects.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import type { AuthContext } from './context.js';
import { isAllowedOrigin } from './redirects.js';

const text = z.string().catch('');
const redirect = { redirectUrl: z.string().nullish() };

export const ZSignUpBody = z.object({
  email: text,
  password: text,
  displayName: z.string().optional().catch(undefined),
});
export const ZSignInBody = z.object({ email: text, password: text });
export const ZRefreshBody = z.object({ refresh_token: text });
export const ZChangePasswordBody = z.object({ oldPassword: text, newPassword: text });
export const ZEmailLinkBody = z.object({ email: text, ...redirect });
export const ZResetConfirmBody = z.object({ token: text, password: text });
export const ZTokenBody = z.object({ token: text });
export const ZOAuthExchangeBody = z.object({ code: text }).catch({ code: '' });
/** Apple's form POST to the OAuth callback: the provider's fields, all text. */
export const ZOAuthCallbackBody = z.record(z.string(), z.string()).catch({});
/** The email the sign-in and mail limits count by. */
export const ZRateLimitedBody = z.object({ email: text }).catch({ email: '' });

const projectNotFound = (projectId: unknown) =>
  new ApiError('PROJECT_NOT_FOUND', `Project '${String(projectId).slice(0, 64)}' not found`);
const redirectNotAllowed = () =>
  new ApiError('REDIRECT_NOT_ALLOWED', 'redirectUrl must be on one of the allowed origins (APP_ORIGINS)');

/** The body as `schema` reads it; a body of another project, or a redirect off the allow-list, is refused. */
export function readBody<T extends object>(request: FastifyRequest, ctx: AuthContext, schema: z.ZodType<T>): T {
  const raw =
    typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : {};
  const projectId = 'projectId' in raw ? raw.projectId : undefined;
  if (projectId !== undefined && projectId !== ctx.config.projectId) throw projectNotFound(projectId);
  const body = schema.safeParse(raw);
  if (!body.success) throw redirectNotAllowed();
  const { data } = body;
  if (
    'redirectUrl' in data &&
    typeof data.redirectUrl === 'string' &&
    data.redirectUrl &&
    !isAllowedOrigin(data.redirectUrl, ctx.config.appOrigins)
  )
    throw redirectNotAllowed();
  return data;
}
