import * as oidc from 'openid-client';
import type { ResolvedConfig } from '../config.js';
import { ApiError } from '../errors.js';

/** What a provider tells us about the person who signed in there. */
export interface ProvenIdentity {
  email: string;
  emailVerified: boolean;
  displayName?: string;
}

export interface OAuthProvider {
  name: string;
  scope: string;
  /** Resolved once, on first use (OIDC discovery). */
  configuration: () => Promise<oidc.Configuration>;
  /** Reads the identity from the token response (ID token claims, or an API for GitHub). */
  identify: (
    configuration: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ) => Promise<ProvenIdentity>;
}

// Well-known OpenID Connect issuers; GitHub speaks plain OAuth 2.0 and is described by hand.
const issuers = {
  google: 'https://accounts.google.com',
  microsoft: 'https://login.microsoftonline.com/common/v2.0',
  apple: 'https://appleid.apple.com',
} as const;

function memo<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= load().catch((error: unknown) => {
      value = undefined; // a failed discovery is tried again on the next sign-in
      throw error;
    }));
}

/** A local identity provider (http on loopback) is allowed for development; anything else needs https. */
function discover(issuer: string, clientId: string, clientSecret: string) {
  return memo(async () => {
    const url = new URL(issuer);
    const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return oidc.discovery(
      url,
      clientId,
      clientSecret,
      undefined,
      local ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
  });
}

/** OIDC: the ID token's claims, or the userinfo endpoint's when the ID token leaves email out. */
async function fromOidc(
  configuration: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
): Promise<ProvenIdentity> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new ApiError('VERIFICATION_FAILED', 'The sign-in provider sent no ID token.');
  const claims: Record<string, unknown> =
    typeof idClaims.email === 'string'
      ? idClaims
      : await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
  if (typeof claims.email !== 'string')
    throw new ApiError('VERIFICATION_FAILED', 'The sign-in provider did not share an email address.');
  return {
    email: claims.email,
    // Apple sends the flag as the string "true".
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    displayName: typeof claims.name === 'string' ? claims.name : undefined,
  };
}

async function fromGitHub(tokens: oidc.TokenEndpointResponse): Promise<ProvenIdentity> {
  const headers = {
    authorization: `Bearer ${tokens.access_token}`,
    accept: 'application/vnd.github+json',
    'user-agent': 'FieldAssist',
  };
  const [emails, profile] = await Promise.all([
    fetch('https://api.github.com/user/emails', { headers, signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.json() as Promise<{ email: string; primary: boolean; verified: boolean }[]>,
    ),
    fetch('https://api.github.com/user', { headers, signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.json() as Promise<{ name?: string; login?: string }>,
    ),
  ]);
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary) : undefined;
  if (!primary) throw new ApiError('VERIFICATION_FAILED', 'The sign-in provider did not share an email address.');
  return { email: primary.email, emailVerified: primary.verified, displayName: profile.name ?? profile.login };
}

/** The providers configured in the environment, by name (google, github, apple, microsoft, oidc). */
export function configuredProviders(config: ResolvedConfig): Map<string, OAuthProvider> {
  const providers = new Map<string, OAuthProvider>();
  for (const [name, credentials] of Object.entries(config.oauth)) {
    if (name === 'github') {
      const server = {
        issuer: 'https://github.com',
        authorization_endpoint: 'https://github.com/login/oauth/authorize',
        token_endpoint: 'https://github.com/login/oauth/access_token',
      };
      providers.set(name, {
        name,
        scope: 'read:user user:email',
        configuration: async () => new oidc.Configuration(server, credentials.clientId, credentials.clientSecret),
        identify: (_configuration, tokens) => fromGitHub(tokens),
      });
    } else {
      providers.set(name, {
        name,
        scope: 'openid email profile',
        configuration: discover(issuers[name as keyof typeof issuers], credentials.clientId, credentials.clientSecret),
        identify: fromOidc,
      });
    }
  }
  if (config.oidc) {
    providers.set('oidc', {
      name: 'oidc',
      scope: 'openid email profile',
      configuration: discover(config.oidc.issuer, config.oidc.clientId, config.oidc.clientSecret),
      identify: fromOidc,
    });
  }
  return providers;
}
