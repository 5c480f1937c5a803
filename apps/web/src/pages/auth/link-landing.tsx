import { LoaderCircle, LogIn, MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

import { authApi, errorMessage, type SessionResponse } from './auth-api';
import { AuthCard } from './auth-layout';
import type { AuthParams, AuthStepProps } from './auth-params';
import { LinkButton } from './form-fields';
import { useSubmit } from './use-submit';

type Navigate = AuthStepProps['onNavigate'];

/**
 * Landing from an emailed sign-in link. Nothing happens until the button is pressed: mail
 * scanners open every link, and a GET must not use up the one-time token.
 */
export function MagicLinkLanding({
  params,
  token,
  onSession,
  onNavigate,
}: {
  params: AuthParams;
  token: string;
  onSession: (s: SessionResponse) => void;
  onNavigate: Navigate;
}) {
  const { pending, error, run } = useSubmit();
  const signIn = () =>
    run(async () => onSession(await authApi.verifyMagicLink({ token, projectId: params.projectId })));
  return (
    <AuthCard
      title="Sign in with your email link"
      description="Press Sign In to continue to FieldAssist with the email address this link was sent to."
      footer={
        <>
          Link not working? <LinkButton onClick={() => onNavigate('magic-link')}>Request a new one</LinkButton>
        </>
      }
    >
      <div className="grid gap-4">
        {error && <Alert>{error}</Alert>}
        <Button size="lg" className="w-full" disabled={pending} autoFocus onClick={() => void signIn()}>
          {pending ? (
            <LoaderCircle className="animate-spin motion-reduce:animate-none" aria-hidden="true" />
          ) : (
            <LogIn aria-hidden="true" />
          )}
          {pending ? 'Signing in…' : 'Sign In'}
        </Button>
      </div>
    </AuthCard>
  );
}

/** Landing from an email-verification link: a Verify button (POST /api/auth/email/verify). */
export function VerifyEmailLanding({ params, token }: { params: AuthParams; token: string }) {
  const [verified, setVerified] = useState(false);
  const { pending, error, run } = useSubmit();
  const verify = () =>
    run(async () => {
      await authApi.verifyEmail({ token, projectId: params.projectId });
      setVerified(true);
    });

  if (verified) {
    return (
      <AuthCard title="Email verified" description="Thanks! Your email address is confirmed.">
        <Button asChild size="lg" className="w-full">
          <a href={params.redirectUrl ?? '/'}>Continue to FieldAssist</a>
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verify your email" description="Press Verify Email to confirm that this address belongs to you.">
      <div className="grid gap-4">
        {error && <Alert>{error}</Alert>}
        <Button size="lg" className="w-full" disabled={pending} autoFocus onClick={() => void verify()}>
          {pending ? (
            <LoaderCircle className="animate-spin motion-reduce:animate-none" aria-hidden="true" />
          ) : (
            <MailCheck aria-hidden="true" />
          )}
          {pending ? 'Verifying…' : 'Verify Email'}
        </Button>
      </div>
    </AuthCard>
  );
}

// A code is single-use: React's development double effects must not send it twice.
const exchanges = new Map<string, Promise<SessionResponse>>();

/** Back from an OAuth provider with a one-time code: swapped for the session at once. */
export function OAuthCodeLanding({
  code,
  onSession,
  onNavigate,
}: {
  code: string;
  onSession: (s: SessionResponse) => void;
  onNavigate: Navigate;
}) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    if (!exchanges.has(code)) exchanges.set(code, authApi.exchangeOAuthCode({ code }));
    exchanges.get(code)!.then(
      (session) => active && onSession(session),
      (failure: unknown) => active && setError(errorMessage(failure)),
    );
    return () => {
      active = false;
    };
  }, [code, onSession]);

  if (!error) return <SigningIn />;
  return (
    <AuthCard title="Sign-in didn't finish">
      <div className="grid gap-4">
        <Alert>{error}</Alert>
        <Button size="lg" className="w-full" autoFocus onClick={() => onNavigate('sign-in')}>
          Back to sign in
        </Button>
      </div>
    </AuthCard>
  );
}

/** While the page hands the session over (or a provider's answer is being checked). */
export function SigningIn({
  title = 'Signing you in…',
  description = 'Taking you to FieldAssist.',
}: {
  title?: string;
  description?: string;
}) {
  return (
    <AuthCard title={title} description={description}>
      <div role="status" className="flex items-center justify-center py-2 text-muted-foreground">
        <LoaderCircle className="size-6 animate-spin motion-reduce:animate-none" aria-label="Working" />
      </div>
    </AuthCard>
  );
}
