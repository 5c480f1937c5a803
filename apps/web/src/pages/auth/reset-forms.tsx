import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

import { authApi } from './auth-api';
import { AuthCard } from './auth-layout';
import type { AuthParams, AuthStepProps } from './auth-params';
import { EmailSent } from './email-sent';
import { AuthForm, EmailField, LinkButton, PasswordField, SubmitButton } from './form-fields';
import { PASSWORD_HINT } from './sign-up-form';
import { useSubmit } from './use-submit';

/** 'Forgot password?': emails a reset link (POST /api/auth/password/reset). */
export function ForgotPasswordForm({ params, email, onEmailChange, onNavigate }: AuthStepProps) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { pending, error, run } = useSubmit();

  const submit = () =>
    run(async () => {
      await authApi.sendPasswordReset({ email, redirectUrl: params.redirectUrl, projectId: params.projectId });
      setSentTo(email.trim());
    });

  if (sentTo) {
    return (
      <EmailSent onBack={() => onNavigate('sign-in')}>
        If an account exists for <strong className="font-medium text-foreground">{sentTo}</strong>, we sent a link to
        reset your password. It expires in one hour.
      </EmailSent>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      description="Enter your account's email and we'll send you a link to choose a new password."
      footer={<LinkButton onClick={() => onNavigate('sign-in')}>Back to sign in</LinkButton>}
    >
      <AuthForm onSubmit={submit}>
        <EmailField autoFocus value={email} onChange={onEmailChange} />
        {error && <Alert>{error}</Alert>}
        <SubmitButton pending={pending} pendingLabel="Sending link…">
          Send Reset Link
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}

type ResetPasswordFormProps = { params: AuthParams & { resetToken: string }; onNavigate: AuthStepProps['onNavigate'] };

/** Landing from a reset link: a new password (POST /api/auth/password/reset/confirm), then sign in. */
export function ResetPasswordForm({ params, onNavigate }: ResetPasswordFormProps) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { pending, error, run } = useSubmit();

  const submit = () =>
    run(async () => {
      await authApi.confirmPasswordReset({ token: params.resetToken, password, projectId: params.projectId });
      setDone(true);
    });

  if (done) {
    return (
      <AuthCard
        title="Password changed"
        description="Your new password is set, and any other signed-in devices were signed out."
      >
        <Alert variant="success" className="mb-5">
          You can now sign in with your new password.
        </Alert>
        <Button size="lg" className="w-full" autoFocus onClick={() => onNavigate('sign-in')}>
          Sign In
        </Button>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      description="Pick a password you don't use anywhere else."
      footer={
        <>
          Link not working? <LinkButton onClick={() => onNavigate('forgot-password')}>Request a new one</LinkButton>
        </>
      }
    >
      <AuthForm onSubmit={submit}>
        <PasswordField
          label="New password"
          name="new-password"
          autoComplete="new-password"
          required
          autoFocus
          hint={PASSWORD_HINT}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && <Alert>{error}</Alert>}
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save New Password
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
