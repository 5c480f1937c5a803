// Magic links, passwords, email verification, account deletion and the provider list
// (PLATFORM_API.md §2.5 #6, #7, #9, #10, #12–#14, #16, #17). Both modes.
import type { AuthClient } from './auth-client.js';
import type { AuthContext } from './context.js';
import { authError, noAccessToken } from './errors.js';
import type { AuthErrorCode } from './error-codes.js';
import { completeSignIn } from './sign-in.js';
import { magicTokenFromSearch, withoutParams } from './url-session.js';

const DEFAULT_PROVIDERS = ['email', 'google'];

/** §2.5 #17: an account-delete refusal without a server code. */
function deleteCodeFor(status: number): AuthErrorCode {
  return status === 404 ? 'USER_NOT_FOUND' : status === 401 ? 'TOKEN_EXPIRED' : 'INVALID_CREDENTIALS';
}

type AccountMethods = Pick<
  AuthClient,
  | 'sendMagicLink'
  | 'verifyMagicLink'
  | 'sendPasswordResetEmail'
  | 'confirmPasswordReset'
  | 'changePassword'
  | 'sendEmailVerification'
  | 'verifyEmail'
  | 'deleteAccount'
  | 'getAvailableProviders'
>;

export function createAccountMethods(ctx: AuthContext): AccountMethods {
  const { api, session, projectId } = ctx;
  const validToken = async () => {
    const token = await session.getValidToken();
    if (!token) throw noAccessToken();
    return token;
  };

  return {
    async sendMagicLink(email, options) {
      const body = { email, redirectUrl: options?.redirectUrl, projectId };
      await api.call('/signin/magic', { method: 'POST', body, fallback: 'Failed to send magic link' });
    },
    async verifyMagicLink(token) {
      const fromUrl = token || !ctx.win ? null : magicTokenFromSearch(ctx.win.location.search);
      const magicToken = token || fromUrl?.token;
      if (!magicToken) throw authError('VERIFICATION_FAILED', 'No magic link token found');
      const body = await api.call('/signin/magic/verify', {
        method: 'POST',
        body: { token: magicToken, projectId },
        fallback: 'Magic link verification failed',
      });
      const user = await completeSignIn(ctx, body);
      // The token is spent: keep it out of the address bar, history and referrers.
      if (fromUrl && ctx.win)
        ctx.win.history.replaceState(ctx.win.history.state, '', withoutParams(ctx.win.location.href, [fromUrl.param]));
      return user;
    },
    async sendPasswordResetEmail(email, options) {
      const body = { email, projectId, redirectUrl: options?.redirectUrl };
      await api.call('/password/reset', { method: 'POST', body, fallback: 'Failed to send password reset email' });
    },
    async confirmPasswordReset(token, newPassword) {
      const body = { token, password: newPassword, projectId };
      await api.call('/password/reset/confirm', { method: 'POST', body, fallback: 'Failed to reset password' });
    },
    async changePassword(oldPassword, newPassword) {
      const token = await validToken();
      await api.call('/password/change', {
        method: 'POST',
        body: { oldPassword, newPassword },
        token,
        fallback: 'Failed to change password',
      });
    },
    async sendEmailVerification() {
      const token = await validToken();
      await api.call('/email/verify/send', { method: 'POST', token, fallback: 'Failed to send verification email' });
    },
    async verifyEmail(token) {
      await api.call('/email/verify', {
        method: 'POST',
        body: { token, projectId },
        fallback: 'Failed to verify email',
      });
      const accessToken = session.tokens?.access_token;
      if (accessToken) {
        const { user } = await api.fetchUser(accessToken); // picks up emailVerified
        if (user) session.setUser(user);
      }
    },
    async deleteAccount() {
      const token = await validToken();
      await api.call('/account', {
        method: 'DELETE',
        token,
        fallback: 'Failed to delete account',
        codeWithoutServerCode: deleteCodeFor,
      });
      session.clear();
    },
    async getAvailableProviders() {
      try {
        const body = await api.call<{ providers?: unknown }>('/providers', {
          query: { projectId },
          fallback: 'Failed to load providers',
        });
        const providers = body?.providers;
        return Array.isArray(providers) && providers.every((p) => typeof p === 'string')
          ? providers
          : [...DEFAULT_PROVIDERS];
      } catch {
        return [...DEFAULT_PROVIDERS];
      }
    },
  };
}
