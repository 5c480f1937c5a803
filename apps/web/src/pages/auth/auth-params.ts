import { PROJECT_ID } from '@/lib/sign-in-url';

/**
 * What the hosted page was opened with: the app's return address and popup details
 * (PLATFORM_API.md 2.7, 2.8), or the one-time token of an emailed link. The server has
 * already refused to serve the page when redirect_url or opener_origin is not allowed.
 */
export interface AuthParams {
  projectId: string;
  redirectUrl?: string;
  mode?: string;
  state?: string;
  openerOrigin?: string;
  /** Set by the client's signInWithProvider: go straight to that provider. */
  provider?: string;
  magicToken?: string;
  resetToken?: string;
  verifyToken?: string;
  oauthCode?: string;
  /** Why a provider sign-in failed: the server sends a code, the page shows our own text for it. */
  oauthError?: string;
}

// Only these texts can appear: a link cannot put words of its own on the sign-in page.
const OAUTH_ERRORS: Record<string, string> = {
  SIGN_IN_EXPIRED: 'This sign-in has expired. Please try again.',
  POPUP_CANCELED: 'Sign-in was canceled. Please try again.',
  EMAIL_NOT_VERIFIED: 'Please verify your email address before signing in.',
  VERIFICATION_FAILED: 'Verification failed. Please try again.',
};

function oauthErrorText(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return Object.hasOwn(OAUTH_ERRORS, code) ? OAUTH_ERRORS[code] : 'Sign-in with the provider failed. Please try again.';
}

/** Carried on to the OAuth start endpoint, so the provider's answer returns to the same place. */
const PASS_THROUGH = ['redirect_url', 'state', 'mode', 'opener_origin', 'project_id'];

/** One-time values that must not stay in the address bar once the page has read them. */
const ONE_TIME = ['magic_token', 'reset_token', 'verify_token', 'oauth_code', 'oauth_error'];

export function readAuthParams(search: string): AuthParams {
  const query = new URLSearchParams(search);
  const get = (name: string) => query.get(name) || undefined;
  return {
    projectId: get('project_id') ?? PROJECT_ID,
    redirectUrl: get('redirect_url'),
    mode: get('mode'),
    state: get('state'),
    openerOrigin: get('opener_origin'),
    provider: get('provider'),
    magicToken: get('magic_token'),
    resetToken: get('reset_token'),
    verifyToken: get('verify_token'),
    oauthCode: get('oauth_code'),
    oauthError: oauthErrorText(get('oauth_error')),
  };
}

/** `/api/auth/oauth/<provider>/start?` plus the parameters this page received. */
export function oauthStartUrl(provider: string, search: string): string {
  const received = new URLSearchParams(search);
  const query = new URLSearchParams();
  for (const name of PASS_THROUGH) {
    const value = received.get(name);
    if (value) query.set(name, value);
  }
  return `/api/auth/oauth/${encodeURIComponent(provider)}/start?${query.toString()}`;
}

/** The current address without one-time tokens (after a link was used or abandoned). */
export function forgetOneTimeParams(): void {
  const url = new URL(window.location.href);
  for (const name of ONE_TIME) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', url.toString());
}

/** The steps a visitor can move between on the page. */
export type AuthView = 'sign-in' | 'sign-up' | 'magic-link' | 'forgot-password';

/** What every form step receives: the email is shared, so it is not typed twice. */
export interface AuthStepProps {
  params: AuthParams;
  email: string;
  onEmailChange: (email: string) => void;
  onNavigate: (view: AuthView) => void;
}
