import type { AuthParams } from './auth-params';
import type { SessionResponse } from './auth-api';

export type Delivery = 'posted' | 'redirecting';

/**
 * Hands a new session to the app (PLATFORM_API.md 2.7, 2.8, 14.7). A popup posts the
 * tokens to its opener, at exactly the origin it was opened with, and closes; otherwise
 * the page returns to redirect_url (default: this origin's root) with the tokens in its
 * query, where the client picks them up and removes them from the address bar.
 */
export function deliverSession(session: SessionResponse, params: AuthParams): Delivery {
  const opener = window.opener as Window | null;
  if (params.mode === 'popup' && opener && params.openerOrigin) {
    opener.postMessage(
      {
        type: 'BLINK_AUTH_TOKENS',
        access_token: session.access_token,
        refresh_token: session.refresh_token,
        token_type: session.token_type,
        expires_in: session.expires_in,
        refresh_expires_in: session.refresh_expires_in,
        projectId: params.projectId,
        state: params.state,
      },
      params.openerOrigin,
    );
    window.close();
    return 'posted';
  }
  window.location.replace(returnUrl(session, params));
  return 'redirecting';
}

/** redirect_url with the tokens (and the state the app sent, which it checks) appended, its own query and hash kept. */
export function returnUrl(
  session: SessionResponse,
  { redirectUrl, state }: Pick<AuthParams, 'redirectUrl' | 'state'>,
): string {
  const url = new URL(redirectUrl ?? '/', window.location.origin);
  url.searchParams.set('access_token', session.access_token);
  url.searchParams.set('refresh_token', session.refresh_token);
  url.searchParams.set('token_type', session.token_type);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}
