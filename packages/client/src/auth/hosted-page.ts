// The hosted sign-in page `${baseUrl}/auth` (PLATFORM_API.md §2.7, §2.8) and the origins
// whose postMessages are trusted (SPEC.md §5).

const LOCAL_DEV_ORIGINS = ['http://localhost:3000', 'http://localhost:3001'];

/** The server's origin plus the two local development origins. */
export function trustedOrigins(baseUrl: string): string[] {
  return [new URL(baseUrl).origin, ...LOCAL_DEV_ORIGINS];
}

function hostedPage(baseUrl: string): URL {
  return new URL(`${baseUrl.replace(/\/+$/, '')}/auth`);
}

/**
 * `/auth?redirect_url=<R>&project_id=<pid>&state=<state>` (and `&provider=<p>` when one is
 * chosen, SPEC.md section 2), where R loses its own `redirect_url` and `redirect` parameters
 * so repeated sign-ins do not nest.
 */
export function buildLoginUrl(
  baseUrl: string,
  projectId: string,
  redirectUrl: string,
  { state, provider }: { state: string; provider?: string },
): string {
  let target = redirectUrl;
  try {
    const parsed = new URL(redirectUrl);
    parsed.searchParams.delete('redirect_url');
    parsed.searchParams.delete('redirect');
    target = parsed.toString();
  } catch {
    // Not an absolute URL: sent as given, the hosted page decides.
  }
  const url = hostedPage(baseUrl);
  url.searchParams.set('redirect_url', target);
  url.searchParams.set('project_id', projectId);
  url.searchParams.set('state', state);
  if (provider) url.searchParams.set('provider', provider);
  return url.toString();
}

export interface ProviderUrlOptions {
  baseUrl: string;
  projectId: string;
  provider: string;
  state: string;
  mode: 'popup' | 'redirect';
  redirectUrl: string;
  openerOrigin: string;
}

/** `/auth?provider&project_id&state&mode&redirect_url&opener_origin` (§2.8). */
export function buildProviderUrl(options: ProviderUrlOptions): string {
  const url = hostedPage(options.baseUrl);
  url.searchParams.set('provider', options.provider);
  url.searchParams.set('project_id', options.projectId);
  url.searchParams.set('state', options.state);
  url.searchParams.set('mode', options.mode);
  url.searchParams.set('redirect_url', options.redirectUrl);
  url.searchParams.set('opener_origin', options.openerOrigin);
  return url.toString();
}
