import { useState } from 'react';

import { Alert } from '@/components/ui/alert';

import { authApi } from './auth-api';
import { AuthCard } from './auth-layout';
import type { AuthStepProps } from './auth-params';
import { EmailSent } from './email-sent';
import { AuthForm, EmailField, LinkButton, SubmitButton } from './form-fields';
import { useSubmit } from './use-submit';

/** Asks for a sign-in link by email (POST /api/auth/signin/magic). */
export function MagicLinkForm({ params, email, onEmailChange, onNavigate }: AuthStepProps) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { pending, error, run } = useSubmit();

  const submit = () =>
    run(async () => {
      await authApi.sendMagicLink({ email, redirectUrl: params.redirectUrl, projectId: params.projectId });
      setSentTo(email.trim());
    });

  if (sentTo) {
    return (
      <EmailSent onBack={() => onNavigate('sign-in')}>
        If <strong className="font-medium text-foreground">{sentTo}</strong> can sign in to FieldAssist, a sign-in link
        is on its way. It works once and expires in 15 minutes.
      </EmailSent>
    );
  }

  return (
    <AuthCard
      title="Email me a sign-in link"
      description="We'll email you a link that signs you in. No password needed."
      footer={<LinkButton onClick={() => onNavigate('sign-in')}>Sign in with a password instead</LinkButton>}
    >
      <AuthForm onSubmit={submit}>
        <EmailField autoFocus value={email} onChange={onEmailChange} />
        {error && <Alert>{error}</Alert>}
        <SubmitButton pending={pending} pendingLabel="Sending link…">
          Send Sign-In Link
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
