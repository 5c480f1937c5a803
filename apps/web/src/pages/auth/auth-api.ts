import { AUTH_ERROR_MESSAGES, GENERIC_AUTH_MESSAGE } from '@fieldassist/client';

/**
 * The calls the hosted page makes to /api/auth (PLATFORM_API.md 2.5). The page talks to
 * the server directly, not through the client: it is the sign-in screen the client opens.
 */

/** The one error the page's calls throw: the server's code and its SPEC.md section 8 text. */
export class AuthApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'AuthApiError';
  }
}

/** What every successful sign-in answers (PLATFORM_API.md 2.1, 2.2). */
export interface SessionResponse {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  refresh_expires_in: number;
  user: { id: string; email: string; displayName?: string | null; role?: string | null };
}

export interface ProvidersResponse {
  providers: string[];
  /** The label of the company's own provider (`oidc`), when configured. */
  oidcName?: string | null;
}

/** The SPEC.md section 8 text for a code (the generic text for codes outside the table). */
function messageForCode(code: string): string {
  return Object.hasOwn(AUTH_ERROR_MESSAGES, code)
    ? AUTH_ERROR_MESSAGES[code as keyof typeof AUTH_ERROR_MESSAGES]
    : GENERIC_AUTH_MESSAGE;
}

async function request<T>(path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new AuthApiError('NETWORK_ERROR', AUTH_ERROR_MESSAGES.NETWORK_ERROR, 0);
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const fields = (typeof json === 'object' && json !== null ? json : {}) as {
      code?: unknown;
      error?: unknown;
      message?: unknown;
    };
    const code = typeof fields.code === 'string' ? fields.code : 'NETWORK_ERROR';
    const text = [fields.error, fields.message].find(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    throw new AuthApiError(code, text ?? messageForCode(code), response.status);
  }
  return json as T;
}

type Project = { projectId: string };

export const authApi = {
  getProviders: ({ projectId }: Project) =>
    request<ProvidersResponse>(`/providers?projectId=${encodeURIComponent(projectId)}`),
  signIn: (input: Project & { email: string; password: string }) => request<SessionResponse>('/signin/email', input),
  signUp: (input: Project & { email: string; password: string; displayName: string }) =>
    request<SessionResponse>('/signup', input),
  sendMagicLink: (input: Project & { email: string; redirectUrl?: string }) => request<unknown>('/signin/magic', input),
  verifyMagicLink: (input: Project & { token: string }) => request<SessionResponse>('/signin/magic/verify', input),
  sendPasswordReset: (input: Project & { email: string; redirectUrl?: string }) =>
    request<unknown>('/password/reset', input),
  confirmPasswordReset: (input: Project & { token: string; password: string }) =>
    request<unknown>('/password/reset/confirm', input),
  verifyEmail: (input: Project & { token: string }) => request<unknown>('/email/verify', input),
  exchangeOAuthCode: (input: { code: string }) => request<SessionResponse>('/oauth/exchange', input),
};

/** The text to show for any failure of the calls above. */
export function errorMessage(error: unknown): string {
  return error instanceof AuthApiError ? error.message : GENERIC_AUTH_MESSAGE;
}
