// Sign-up and sign-in (PLATFORM_API.md §2.5 #3, #4, §2.8). Headless mode only (SPEC.md §5).
import type { AuthClient } from './auth-client.js';
import { userOf } from './api.js';
import type { AuthContext } from './context.js';
import { authError, headlessOnly } from './errors.js';
import { buildProviderUrl } from './hosted-page.js';
import { isEmbedded } from './init.js';
import { openAuthPopup } from './popup.js';
import { nowSeconds, toTokenSet } from './tokens.js';
import { OAUTH_STATE_KEY, randomHex } from './url-session.js';
import type { AuthProvider, AuthUser, RedirectOptions } from './types.js';

/** Takes a token answer (tokens plus `user`, else `/me` is asked), persists it, returns the user. */
export async function completeSignIn(ctx: AuthContext, body: unknown): Promise<AuthUser> {
  const tokens = toTokenSet(body, nowSeconds());
  if (!tokens) throw authError('NETWORK_ERROR', 'Invalid response format: no access token', body);
  await ctx.session.apply(tokens, { persist: true, user: userOf(body) });
  const user = ctx.session.user;
  if (!user) throw authError('NETWORK_ERROR', 'Signed in, but the user could not be loaded');
  return user;
}

type SignInMethods = Pick<
  AuthClient,
  | 'signUp'
  | 'signInWithEmail'
  | 'signInWithProvider'
  | 'signInWithGoogle'
  | 'signInWithGitHub'
  | 'signInWithApple'
  | 'signInWithMicrosoft'
>;

export function createSignInMethods(ctx: AuthContext): SignInMethods {
  const requireHeadless = (method: string) => {
    if (ctx.mode !== 'headless') throw headlessOnly(method);
  };

  const providerSignIn = async (provider: AuthProvider, options?: RedirectOptions): Promise<AuthUser> => {
    const { win } = ctx;
    if (!win) throw authError('NETWORK_ERROR', 'signInWithProvider requires a browser environment');
    const state = randomHex(16);
    try {
      win.sessionStorage.setItem(OAUTH_STATE_KEY, state);
    } catch {
      // The popup check uses the state of this very attempt; storage is for the redirect path.
    }
    const origin = win.location.origin;
    const urlFor = (mode: 'popup' | 'redirect') =>
      buildProviderUrl({
        ...ctx,
        provider,
        state,
        mode,
        redirectUrl: options?.redirectUrl ?? origin,
        openerOrigin: origin,
      });
    if (isEmbedded(win) || win.crossOriginIsolated === true) {
      win.location.href = urlFor('redirect');
      return new Promise<never>(() => undefined); // the page is leaving; tokens come back in the URL
    }
    const message = await openAuthPopup({
      win,
      urlFor,
      trustedOrigins: ctx.trustedOrigins,
      projectId: ctx.projectId,
      state,
    });
    return completeSignIn(ctx, message);
  };

  const shortcut = (method: string, provider: AuthProvider) => async (options?: RedirectOptions) => {
    requireHeadless(method);
    return providerSignIn(provider, options);
  };

  return {
    async signUp(data) {
      requireHeadless('signUp');
      const body = await ctx.api.call('/signup', {
        method: 'POST',
        body: { ...data, projectId: ctx.projectId },
        fallback: 'Sign up failed',
      });
      return completeSignIn(ctx, body);
    },
    async signInWithEmail(email, password) {
      requireHeadless('signInWithEmail');
      const body = await ctx.api.call('/signin/email', {
        method: 'POST',
        body: { email, password, projectId: ctx.projectId },
        fallback: 'Sign in failed',
      });
      return completeSignIn(ctx, body);
    },
    async signInWithProvider(provider, options) {
      requireHeadless('signInWithProvider');
      return providerSignIn(provider, options);
    },
    signInWithGoogle: shortcut('signInWithGoogle', 'google'),
    signInWithGitHub: shortcut('signInWithGitHub', 'github'),
    signInWithApple: shortcut('signInWithApple', 'apple'),
    signInWithMicrosoft: shortcut('signInWithMicrosoft', 'microsoft'),
  };
}
