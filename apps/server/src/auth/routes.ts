import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError, tooManyAttempts } from '../errors.js';
import { normaliseEmail } from './accounts.js';
import {
  ZChangePasswordBody,
  ZEmailLinkBody,
  ZRateLimitedBody,
  ZRefreshBody,
  ZResetConfirmBody,
  ZSignInBody,
  ZSignUpBody,
  ZTokenBody,
  readBody,
} from './bodies.js';
import { requireUser } from './caller.js';
import type { AuthContext } from './context.js';
import {
  createEmailVerification,
  createMagicLink,
  sendEmailVerification,
  sendMagicLink,
  verifyEmail,
  verifyMagicLink,
} from './link-flows.js';
import {
  changePassword,
  confirmPasswordReset,
  createPasswordReset,
  sendPasswordReset,
  signInWithPassword,
  signUp,
} from './password-flows.js';
import { ZUpdateMeBody, deleteAccount, getMe, updateMe } from './profile-flows.js';
import { endSession, rotateSession } from './sessions.js';

function requireServiceKey(request: FastifyRequest) {
  if (request.caller.kind !== 'service') throw new ApiError('FORBIDDEN', 'This endpoint needs the service key');
}

// Guessing passwords and flooding inboxes: counted per address and per email.
const perIp = (max: number, minutes: number) => ({ rateLimit: { max, timeWindow: minutes * 60_000 } });
const perEmail = (max: number, minutes: number) => ({
  rateLimit: {
    max,
    timeWindow: minutes * 60_000,
    // Counted once the body is parsed: on the default onRequest hook the email is not there yet.
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => {
      return `${request.ip}|${ZRateLimitedBody.parse(request.body).email.trim().toLowerCase()}`;
    },
  },
});

/**
 * A second count, per address alone, for the routes perEmail counts: without it one address may try
 * a password on every account (spraying) or mail every inbox. The plugin runs one limiter per route,
 * so this is an onRequest hook counting through createRateLimit, in the plugin's own store (with
 * REDIS_URL the same Redis keys for every instance; `name` keeps each route's count apart), and it
 * refuses as the plugin's limiter does: its headers, and app.ts's errorResponseBuilder error.
 */
function perAddress(app: FastifyInstance, name: string, max: number, minutes: number) {
  const count = app.createRateLimit({
    max,
    timeWindow: minutes * 60_000,
    keyGenerator: (request) => `${name}|${request.ip}`,
  });
  // On onRequest: it needs no body, so a malformed one still counts.
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const limit = await count(request);
    if (limit.isAllowed || !limit.isExceeded) return;
    reply.headers({
      'x-ratelimit-limit': limit.max,
      'x-ratelimit-remaining': 0,
      'x-ratelimit-reset': limit.ttlInSeconds,
      'retry-after': limit.ttlInSeconds,
    });
    throw tooManyAttempts();
  };
}

/** The auth endpoints of PLATFORM_API.md section 2.5, under /api/auth. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AuthContext) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ok = { success: true };
  // Per address: far above what a busy office behind one NAT sends (sessions last 30 days, so a
  // person signs in or asks for a link rarely; 50 is a whole shift arriving at once, typos
  // included), yet a sprayer gets 10 accounts a minute instead of thousands, and a mailer 50 or
  // 20 inboxes a quarter-hour. Resets are rarer than sign-ins.
  const signInPerAddress = perAddress(app, 'signin', 50, 5);
  const magicLinkPerAddress = perAddress(app, 'magic', 50, 15);
  const resetPerAddress = perAddress(app, 'reset', 20, 15);

  app.post('/api/auth/signup', { config: perIp(30, 10) }, async (request) =>
    signUp(ctx, readBody(request, ctx, ZSignUpBody)),
  );
  app.post('/api/auth/signin/email', { config: perEmail(10, 5), onRequest: signInPerAddress }, async (request) =>
    signInWithPassword(ctx, readBody(request, ctx, ZSignInBody)),
  );
  app.post('/api/auth/refresh', { config: perIp(120, 1) }, async (request) => {
    const token = readBody(request, ctx, ZRefreshBody).refresh_token;
    if (!token) throw new ApiError('TOKEN_EXPIRED', 'Session expired. Please sign in again.');
    return rotateSession(ctx.pool, ctx.signer, token);
  });
  app.post('/api/auth/signout', async (request) => {
    const token = readBody(request, ctx, ZRefreshBody).refresh_token;
    if (token) await endSession(ctx.pool, token);
    return ok;
  });

  app.get('/api/auth/me', async (request) => getMe(ctx, requireUser(request.caller)));
  typed.patch('/api/auth/me', { schema: { body: ZUpdateMeBody } }, async (request) =>
    updateMe(ctx, requireUser(request.caller), request.body),
  );
  app.delete('/api/auth/account', async (request) => {
    await deleteAccount(ctx, requireUser(request.caller));
    return ok;
  });

  app.post('/api/auth/password/change', { config: perIp(10, 10) }, async (request) => {
    await changePassword(ctx, requireUser(request.caller), readBody(request, ctx, ZChangePasswordBody));
    return ok;
  });
  app.post('/api/auth/password/reset', { config: perEmail(5, 15), onRequest: resetPerAddress }, async (request) => {
    const { email, redirectUrl } = readBody(request, ctx, ZEmailLinkBody);
    await sendPasswordReset(ctx, { email, redirectUrl: redirectUrl || undefined });
    return ok;
  });
  app.post('/api/auth/password/reset/generate', async (request) => {
    requireServiceKey(request);
    const { email, redirectUrl } = readBody(request, ctx, ZEmailLinkBody);
    return createPasswordReset(ctx, normaliseEmail(email), redirectUrl || undefined);
  });
  app.post('/api/auth/password/reset/confirm', { config: perIp(20, 15) }, async (request) => {
    await confirmPasswordReset(ctx, readBody(request, ctx, ZResetConfirmBody));
    return ok;
  });

  app.post('/api/auth/email/verify/generate', async (request) => {
    const { email: _email, ...link } = await createEmailVerification(ctx, requireUser(request.caller));
    return link;
  });
  app.post('/api/auth/email/verify/send', { config: perIp(5, 15) }, async (request) => {
    await sendEmailVerification(ctx, requireUser(request.caller));
    return ok;
  });
  app.post('/api/auth/email/verify', { config: perIp(20, 15) }, async (request) => {
    await verifyEmail(ctx, readBody(request, ctx, ZTokenBody).token);
    return ok;
  });

  app.post('/api/auth/signin/magic', { config: perEmail(5, 15), onRequest: magicLinkPerAddress }, async (request) => {
    const { email, redirectUrl } = readBody(request, ctx, ZEmailLinkBody);
    await sendMagicLink(ctx, { email, redirectUrl: redirectUrl || undefined });
    return ok;
  });
  app.post('/api/auth/signin/magic/generate', async (request) => {
    requireServiceKey(request);
    const { email, redirectUrl } = readBody(request, ctx, ZEmailLinkBody);
    return createMagicLink(ctx, normaliseEmail(email), redirectUrl || undefined);
  });
  app.post('/api/auth/signin/magic/verify', { config: perIp(20, 15) }, async (request) => {
    const { redirectUrl: _redirect, ...session } = await verifyMagicLink(ctx, readBody(request, ctx, ZTokenBody).token);
    return session;
  });

  app.get('/api/auth/providers', async () => ({
    providers: ['email', 'magic_link', ...Object.keys(ctx.config.oauth), ...(ctx.config.oidc ? ['oidc'] : [])],
    oidcName: ctx.config.oidc?.name ?? null,
  }));
}
