import type { FastifyInstance, FastifyReply } from 'fastify';
import * as oidc from 'openid-client';
import { ApiError } from '../errors.js';
import { normaliseEmail } from './accounts.js';
import { ZOAuthCallbackBody, ZOAuthExchangeBody } from './bodies.js';
import { type AuthContext, hostedPageLink } from './context.js';
import { signInWithProvenEmail } from './link-flows.js';
import { configuredProviders } from './oauth-providers.js';
import { consumeOneTimeToken, createOneTimeToken } from './one-time-tokens.js';
import { isAllowedOrigin } from './redirects.js';

type Query = Record<string, string | undefined>;

/**
 * Sign-in with Google, GitHub, Apple, Microsoft or the company's OIDC provider: the
 * authorization code flow with PKCE, state and nonce. The provider's answer becomes a
 * one-time code handed to the hosted page, which exchanges it (a POST) for a session and
 * delivers it like any other sign-in: tokens never travel in a provider's redirect.
 */
export function registerOAuthRoutes(app: FastifyInstance, ctx: AuthContext) {
  const providers = configuredProviders(ctx.config);
  const allowed = [...ctx.config.appOrigins, new URL(ctx.config.publicUrl).origin];
  const callbackUrl = new URL('/api/auth/oauth/callback', ctx.config.publicUrl).toString();

  app.get<{ Params: { provider: string }; Querystring: Query }>(
    '/api/auth/oauth/:provider/start',
    async (request, reply) => {
      const provider = providers.get(request.params.provider);
      if (!provider)
        throw new ApiError('NOT_FOUND', `Sign-in with '${request.params.provider.slice(0, 32)}' is not configured`);
      const q = request.query;
      const redirectUrl = q.redirect_url ?? `${new URL(ctx.config.publicUrl).origin}/`;
      if (
        !isAllowedOrigin(redirectUrl, allowed) ||
        (q.opener_origin !== undefined && !isAllowedOrigin(q.opener_origin, allowed))
      ) {
        throw new ApiError(
          'REDIRECT_NOT_ALLOWED',
          'redirect_url and opener_origin must be on one of the allowed origins (APP_ORIGINS)',
        );
      }
      const configuration = await provider.configuration().catch(() => {
        throw new ApiError('SERVICE_UNAVAILABLE', 'The sign-in provider cannot be reached; try again shortly');
      });
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await ctx.pool.query(
        `INSERT INTO auth_oauth_states (state, provider, code_verifier, nonce, redirect_url, opener_origin, mode, client_state, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + interval '10 minutes')`,
        [
          state,
          provider.name,
          codeVerifier,
          nonce,
          redirectUrl,
          q.opener_origin ?? null,
          q.mode === 'popup' ? 'popup' : 'redirect',
          q.state ?? null,
        ],
      );
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: callbackUrl,
        scope: provider.scope,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...(provider.name === 'apple' ? { response_mode: 'form_post' } : {}),
      });
      return reply.redirect(url.toString());
    },
  );

  // Apple answers with a form POST; the others with a GET.
  const callback = async (query: Query, reply: FastifyReply) => {
    const { rows } = await ctx.pool.query(
      'DELETE FROM auth_oauth_states WHERE state = $1 RETURNING *, expires_at < now() AS expired',
      [query.state ?? ''],
    );
    const saved = rows[0];
    // The hosted page shows its own text for each code (a URL must not carry words onto our page).
    if (!saved || saved.expired) return reply.redirect(hostedPageLink(ctx, { oauth_error: 'SIGN_IN_EXPIRED' }));
    const back = {
      redirect_url: saved.redirect_url,
      mode: saved.mode,
      opener_origin: saved.opener_origin ?? undefined,
      state: saved.client_state ?? undefined,
      project_id: ctx.config.projectId,
    };
    try {
      if (query.error === 'access_denied')
        return reply.redirect(hostedPageLink(ctx, { ...back, oauth_error: 'POPUP_CANCELED' }));
      if (query.error) throw new ApiError('VERIFICATION_FAILED', 'The sign-in provider refused the sign-in.');
      const provider = providers.get(saved.provider)!;
      const configuration = await provider.configuration();
      const current = new URL(callbackUrl);
      for (const [key, value] of Object.entries(query)) if (value !== undefined) current.searchParams.set(key, value);
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: saved.code_verifier,
        expectedState: saved.state,
        expectedNonce: provider.name === 'github' ? undefined : saved.nonce,
        idTokenExpected: provider.name !== 'github',
      });
      const identity = await provider.identify(configuration, tokens);
      // An unverified address at a lax provider must not open someone else's account.
      if (!identity.emailVerified)
        throw new ApiError('EMAIL_NOT_VERIFIED', 'Please verify your email address before signing in.');
      const { token } = await createOneTimeToken(ctx.pool, {
        kind: 'oauth',
        email: normaliseEmail(identity.email),
        displayName: identity.displayName,
      });
      return reply.redirect(hostedPageLink(ctx, { ...back, oauth_code: token }));
    } catch (error) {
      if (!(error instanceof ApiError)) app.log.warn({ err: error }, 'oauth callback failed');
      return reply.redirect(
        hostedPageLink(ctx, { ...back, oauth_error: error instanceof ApiError ? error.code : 'OAUTH_FAILED' }),
      );
    }
  };
  app.get<{ Querystring: Query }>('/api/auth/oauth/callback', async (request, reply) => callback(request.query, reply));
  app.post('/api/auth/oauth/callback', async (request, reply) =>
    callback(ZOAuthCallbackBody.parse(request.body), reply),
  );

  /** The hosted page trades the one-time code for a session. */
  app.post('/api/auth/oauth/exchange', { config: { rateLimit: { max: 20, timeWindow: 60_000 } } }, async (request) => {
    const { email, displayName } = await consumeOneTimeToken(
      ctx.pool,
      'oauth',
      ZOAuthExchangeBody.parse(request.body).code,
    );
    return signInWithProvenEmail(ctx, email, { displayName: displayName ?? undefined });
  });
}
