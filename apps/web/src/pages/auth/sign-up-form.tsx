import { useState } from 'react';

import { Alert } from '@/components/ui/alert';

import { authApi, type SessionResponse } from './auth-api';
import { AuthCard } from './auth-layout';
import type { AuthStepProps } from './auth-params';
import { AuthForm, EmailField, LinkButton, PasswordField, SubmitButton, TextField } from './form-fields';
import { useSubmit } from './use-submit';

/** The server's rule (apps/server/src/auth/passwords.ts), said before it is enforced. */
export const PASSWORD_HINT = 'At least 8 characters, mixing letters with numbers or symbols.';

/** Creates an account with a password. The server's WEAK_PASSWORD and invite messages show as they come. */
export function SignUpForm({
  params,
  email,
  onEmailChange,
  onNavigate,
  onSession,
}: AuthStepProps & { onSession: (session: SessionResponse) => void }) {
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const { pending, error, run } = useSubmit();

  const submit = () =>
    run(async () =>
      onSession(
        await authApi.signUp({ displayName: displayName.trim(), email, password, projectId: params.projectId }),
      ),
    );

  return (
    <AuthCard
      title="Create your account"
      description="Set up your FieldAssist account to get started."
      footer={
        <>
          Already have an account? <LinkButton onClick={() => onNavigate('sign-in')}>Sign in</LinkButton>
        </>
      }
    >
      <AuthForm onSubmit={submit}>
        <TextField
          label="Display name"
          name="name"
          autoComplete="name"
          required
          autoFocus
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <EmailField value={email} onChange={onEmailChange} />
        <PasswordField
          label="Password"
          name="new-password"
          autoComplete="new-password"
          required
          hint={PASSWORD_HINT}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && <Alert>{error}</Alert>}
        <SubmitButton pending={pending} pendingLabel="Creating account…">
          Create Account
        </SubmitButton>
      </AuthForm>
    </AuthCard>
  );
}
