import { randomBytes } from 'node:crypto';

/** A password the server's strength rule accepts. */
export const GOOD_PASSWORD = 'Wrench-42-volts';

/** A new address for each call, so tests never share accounts. */
export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

/** Creates an account through the API (POST /api/auth/signup), for tests about other things. */
export async function createAccount({
  serverUrl,
  email,
  password = GOOD_PASSWORD,
  displayName,
}: {
  serverUrl: string;
  email: string;
  password?: string;
  displayName?: string;
}) {
  const response = await fetch(`${serverUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, displayName, projectId: 'fieldassist' }),
  });
  if (!response.ok) throw new Error(`sign-up of ${email} answered ${response.status}: ${await response.text()}`);
  const session = (await response.json()) as { access_token: string; refresh_token: string };
  return { email, password, accessToken: session.access_token, refreshToken: session.refresh_token };
}

/** GET /api/auth/me with an access token: the user, as the server sees it. */
export async function fetchMe(
  serverUrl: string,
  accessToken: string,
): Promise<{ email: string; role: string | null; displayName: string | null }> {
  const response = await fetch(`${serverUrl}/api/auth/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new Error(`GET /api/auth/me answered ${response.status}`);
  return ((await response.json()) as { user: { email: string; role: string | null; displayName: string | null } }).user;
}
