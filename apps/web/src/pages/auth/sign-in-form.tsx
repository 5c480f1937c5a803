import { Mail } from 'lucide-react';
import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

import { authApi, type SessionResponse } from './auth-api';
import { AuthCard } from './auth-layout';
import type { AuthStepProps } from './auth-params';
import { AuthForm, EmailField, LinkButton, PasswordField, SubmitButton } from './form-fields';
import { OrDivider, ProviderButtons } from './provider-buttons';
import { useSubmit } from './use-submit';

type SignInFormProps = AuthStepProps & {
  providers: string[];
  oidcName?: string | null;
  /** A failure to show from the start (a provider sign-in that came back with an error). */
  notice?: string;
  onSession: (session: SessionResponse) => void;
};

/** Email and password, then the other ways in: an emailed link and any OAuth providers. */
export function SignInForm({
  params,
  email,
  onEmailChange,
  onNavigate,
  providers,
  oidcName,
  notice,
  onSession,
}: SignInFormProps) {
  const [password, setPassword] = useState('');
  const { pending, error, run } = useSubmit();
  const hasMagicLink = providers.includes('magic_link');
  const hasOAuth = providers.some((provider) => provider !== 'email' && provider !== 'magic_link');
  const shownError = error ?? notice;

  const submit = () =>
    run(async () => onSession(await authApi.signIn({ email, password, projectId: params.projectId })));

  return (
    <AuthCard
      title="Sign in"
      description="Welcome back! Sign in to continue."
      footer={
        <>
          New to FieldAssist? <LinkButton onClick={() => onNavigate('sign-up')}>Create an account</LinkButton>
        </>
      }
    >
      <AuthForm onSubmit={submit}>
        <EmailField autoFocus value={email} onChange={onEmailChange} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {shownError && <Alert>{shownError}</Alert>}
        <SubmitButton pending={pending} pendingLabel="Signing in…">
          Sign In
        </SubmitButton>
        <LinkButton className="justify-self-center text-sm" onClick={() => onNavigate('forgot-password')}>
          Forgot password?
        </LinkButton>
      </AuthForm>
      {(hasMagicLink || hasOAuth) && <OrDivider />}
      <div className="grid gap-3">
        {hasMagicLink && (
          <Button variant="outline" size="lg" className="w-full" onClick={() => onNavigate('magic-link')}>
            <Mail className="size-5" aria-hidden="true" />
            Email me a sign-in link
          </Button>
        )}
        <ProviderButtons providers={providers} oidcName={oidcName} />
      </div>
    </AuthCard>
  );
}
