import type { FastifyInstance } from 'fastify';
import type { Role } from '../auth/caller.js';
import { TEST_SERVICE_KEY } from './test-server.js';

export const TEST_PASSWORD = 'correct-horse-battery-9';

export interface TestUser {
  id: string;
  email: string;
  role: Role | null;
  accessToken: string;
  refreshToken: string;
  headers: { authorization: string };
}

/**
 * Creates an account through the real sign-up endpoint. With a role, an admin's userRoles row
 * is written first (with the service key), which is also what invites the email.
 */
export async function signUpUser(
  app: FastifyInstance,
  opts: { email?: string; role?: Role | null; projectId?: string } = {},
): Promise<TestUser> {
  const email = opts.email ?? `user-${Math.random().toString(16).slice(2, 10)}@example.com`;
  const projectId = opts.projectId ?? 'fieldassist';
  const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };
  await app.inject({
    method: 'POST',
    url: `/api/db/${projectId}/rest/v1/${opts.role ? 'user_roles?on_conflict=user_id' : 'users?on_conflict=id'}`,
    headers: service,
    payload: opts.role ? { user_id: email, role: opts.role, assigned_by: 'tests' } : { id: email, email },
  });
  // Each sign-up comes from its own address, so the per-address sign-up limit is not what a test measures.
  const remoteAddress = `10.${rnd()}.${rnd()}.${rnd()}`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    remoteAddress,
    payload: { email, password: TEST_PASSWORD, displayName: email.split('@')[0], projectId },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return {
    id: body.user.id,
    email,
    role: body.user.role,
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    headers: { authorization: `Bearer ${body.access_token}` },
  };
}

const rnd = () => Math.floor(Math.random() * 250) + 1;
