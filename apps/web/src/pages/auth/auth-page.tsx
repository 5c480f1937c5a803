import { useCallback, useEffect, useState } from 'react';

import type { SessionResponse } from './auth-api';
import { AuthLayout } from './auth-layout';
import { forgetOneTimeParams, oauthStartUrl, readAuthParams, type AuthView } from './auth-params';
import { deliverSession, type Delivery } from './deliver-session';
import { MagicLinkLanding, OAuthCodeLanding, SigningIn, VerifyEmailLanding } from './link-landing';
import { MagicLinkForm } from './magic-link-form';
import { ForgotPasswordForm, ResetPasswordForm } from './reset-forms';
import { SignInForm } from './sign-in-form';
import { SignUpForm } from './sign-up-form';
import { useProviders } from './use-providers';

/**
 * The hosted sign-in page at /auth (PLATFORM_API.md 2.7): sign in, create an account, ask
 * for a link by email, or finish what an emailed link or an OAuth provider started. Every
 * successful sign-in ends in deliverSession.
 */
export function AuthPage() {
  const [params] = useState(() => readAuthParams(window.location.search));
  const { providers, oidcName, loaded } = useProviders(params.projectId);
  // A one-time token is only honoured until the visitor moves on to another step.
  const [linkUsed, setLinkUsed] = useState(false);
  const [view, setView] = useState<AuthView>('sign-in');
  const [email, setEmail] = useState('');
  const [delivery, setDelivery] = useState<Delivery | null>(null);

  const onSession = useCallback((session: SessionResponse) => setDelivery(deliverSession(session, params)), [params]);
  const onNavigate = useCallback((next: AuthView) => {
    forgetOneTimeParams();
    setLinkUsed(true);
    setView(next);
  }, []);

  useEffect(() => {
    if (params.oauthError) forgetOneTimeParams();
  }, [params.oauthError]);

  // The client's signInWithProvider opens this page with ?provider=: go straight there.
  // Until the provider list is in, it is not known whether it can: the form would only flash.
  const wantsProvider = Boolean(params.provider && !linkUsed && !['email', 'magic_link'].includes(params.provider));
  const startProvider = wantsProvider && loaded && providers.includes(params.provider!);
  useEffect(() => {
    if (startProvider && params.provider)
      window.location.replace(oauthStartUrl(params.provider, window.location.search));
  }, [startProvider, params.provider]);

  return <AuthLayout>{renderStep()}</AuthLayout>;

  function renderStep() {
    if (delivery === 'posted')
      return <SigningIn title="You're signed in" description="You can close this window and return to FieldAssist." />;
    if (delivery === 'redirecting') return <SigningIn />;
    if (startProvider || (wantsProvider && !loaded))
      return <SigningIn title="Redirecting…" description="Taking you to your sign-in provider." />;
    if (!linkUsed) {
      const { magicToken, resetToken, verifyToken, oauthCode } = params;
      if (oauthCode) return <OAuthCodeLanding code={oauthCode} onSession={onSession} onNavigate={onNavigate} />;
      if (magicToken)
        return <MagicLinkLanding params={params} token={magicToken} onSession={onSession} onNavigate={onNavigate} />;
      if (resetToken) return <ResetPasswordForm params={{ ...params, resetToken }} onNavigate={onNavigate} />;
      if (verifyToken) return <VerifyEmailLanding params={params} token={verifyToken} />;
    }
    const step = { params, email, onEmailChange: setEmail, onNavigate };
    switch (view) {
      case 'sign-up':
        return <SignUpForm {...step} onSession={onSession} />;
      case 'magic-link':
        return <MagicLinkForm {...step} />;
      case 'forgot-password':
        return <ForgotPasswordForm {...step} />;
      default:
        return (
          <SignInForm
            {...step}
            providers={providers}
            oidcName={oidcName}
            notice={linkUsed ? undefined : params.oauthError}
            onSession={onSession}
          />
        );
    }
  }
}
