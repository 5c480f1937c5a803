import { FieldAssistAuthError, FieldAssistError, FieldAssistValidationError } from '@fieldassist/client';

import { client } from '@/lib/client';
import type { UserRoleName } from '@/lib/tables';

export interface InviteUserInput {
  email: string;
  displayName: string;
  phone?: string;
  role: UserRoleName;
}

export interface InviteUserResult {
  user: { id: string; email: string; displayName: string };
  invitationSent: boolean;
  /** 'outbox' when the server has no mail relay (SMTP_URL): the email waits at /dev/outbox. */
  deliveredTo?: 'email' | 'outbox';
}

/**
 * POST /api/app/{projectId}/invitations (admins only): adds the user and their role and
 * emails them a sign-in link. The SDK has no module for the product's own endpoints yet, so
 * this sends the request itself with the client's token and throws the SDK's error classes.
 */
export async function inviteUser(input: InviteUserInput): Promise<InviteUserResult> {
  const token = await client.auth.getValidToken();
  const response = await fetch(`/api/app/${encodeURIComponent(client.projectId)}/invitations`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(input),
  });
  const body = (await response.json().catch(() => ({}))) as {
    message?: string;
    code?: string;
  } & Partial<InviteUserResult>;
  if (response.ok) return body as InviteUserResult;
  const init = {
    message: body.message ?? `HTTP ${response.status}`,
    code: body.code ?? 'NETWORK_ERROR',
    status: response.status,
    details: body,
  };
  if (response.status === 401) throw new FieldAssistAuthError(init);
  if (response.status === 400) throw new FieldAssistValidationError(init);
  throw new FieldAssistError(init);
}
