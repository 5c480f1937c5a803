import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SERVICE_KEY, buildTestApp } from '../../src/test-support/test-server.js';
import { TEST_PASSWORD, type TestUser, signUpUser } from '../../src/test-support/users.js';

// A signed-in user trying to become admin, or to add people, without being admin: through
// the user_roles and users tables, the profile endpoint, sign-up and the invitations route.
// After every attempt the user's role, as the server reads it on the next request, is unchanged.

const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };
const rest = (path: string) => `/api/db/fieldassist/rest/v1/${path}`;

let app: FastifyInstance;
const users: Record<string, TestUser> = {};

beforeAll(async () => {
  ({ app } = await buildTestApp());
  users.admin = await signUpUser(app, { email: 'admin@example.com' }); // first account: admin
  for (const role of ['manager', 'technician', 'viewer'] as const) users[role] = await signUpUser(app, { role });
  users.noRole = await signUpUser(app);
});

const roleRows = async () =>
  (await app.inject({ method: 'GET', url: rest('user_roles?order=id'), headers: service })).json();
const userRows = async () =>
  (await app.inject({ method: 'GET', url: rest('users?order=id'), headers: service })).json();

/** The role the server gives the user on their next request (read on every request). */
async function roleNow(user: TestUser) {
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers });
  return me.json().user.role as string | null;
}

/** Attempts by `me` against their own role: [form, method, url, body]. */
const attempts = (me: TestUser): [string, 'POST' | 'PATCH' | 'DELETE', string, object | undefined][] => [
  ['insert an admin role row for oneself', 'POST', 'user_roles', { user_id: me.email, role: 'admin' }],
  [
    "insert with different case of one's email",
    'POST',
    'user_roles',
    { user_id: me.email.toUpperCase(), role: 'admin' },
  ],
  ["upsert one's role row on user_id", 'POST', 'user_roles?on_conflict=user_id', { user_id: me.email, role: 'admin' }],
  ["upsert one's role row on id", 'POST', 'user_roles?on_conflict=id', { id: 'x', user_id: me.email, role: 'admin' }],
  ["PATCH one's role row", 'PATCH', `user_roles?user_id=eq.${me.email}`, { role: 'admin' }],
  ['PATCH every role row', 'PATCH', 'user_roles?role=neq.admin', { role: 'admin' }],
  ["DELETE the admin's role row", 'DELETE', 'user_roles?role=eq.admin', undefined],
  ["write users.role on one's own row", 'PATCH', `users?id=eq.${me.email}`, { role: 'admin' }],
  [
    'write users.role with a harmless field beside it',
    'PATCH',
    `users?id=eq.${me.email}`,
    { display_name: 'Me', role: 'admin' },
  ],
  ["change one's own email (to take the admin's)", 'PATCH', `users?id=eq.${me.email}`, { email: 'admin@example.com' }],
  ["rename one's own row id", 'PATCH', `users?id=eq.${me.email}`, { id: 'admin@example.com' }],
  ['create a user', 'POST', 'users', { id: 'new@example.com', email: 'new@example.com', role: 'admin' }],
  [
    "upsert one's own users row with a role",
    'POST',
    'users?on_conflict=id',
    { id: me.email, email: me.email, role: 'admin' },
  ],
];

const placeholder = { email: 'someone@example.com' } as TestUser;

describe.each(['manager', 'technician', 'viewer', 'noRole'] as const)('a %s', (who) => {
  it.each(attempts(placeholder).map(([form], i) => [form, i] as const))('cannot %s', async (_form, i) => {
    const me = users[who]!;
    const [, method, url, payload] = attempts(me)[i]!;
    const [rolesBefore, usersBefore, roleBefore] = [await roleRows(), await userRows(), await roleNow(me)];
    const res = await app.inject({ method, url: rest(url), headers: me.headers, payload });
    expect(res.statusCode, res.body).toBe(403);
    expect(Object.keys(res.json())).toEqual(['error', 'message', 'code']);
    expect(res.json().code).toBe('FORBIDDEN');
    expect(await roleRows()).toEqual(rolesBefore);
    expect(await userRows()).toEqual(usersBefore);
    expect(await roleNow(me)).toBe(roleBefore);
  });

  it('cannot add a user through the invitations route, with any role', async () => {
    const me = users[who]!;
    for (const role of ['admin', 'viewer']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/app/fieldassist/invitations',
        headers: me.headers,
        payload: { email: `invitee-${who}@example.com`, displayName: 'In', role },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'Only admins can add users',
        message: 'Only admins can add users',
        code: 'FORBIDDEN',
      });
    }
    expect(JSON.stringify(await userRows())).not.toContain(`invitee-${who}`);
  });

  it('gains nothing by sending a role to the profile endpoint', async () => {
    const me = users[who]!;
    const before = await roleNow(me);
    const res = await app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: me.headers,
      payload: { displayName: 'Renamed', role: 'admin', email: 'admin@example.com' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: me.email, role: before, displayName: 'Renamed' });
    expect(await roleNow(me)).toBe(before);
  });
});

describe('sign-up and sign-in', () => {
  it('a role or admin flag sent with sign-up is ignored (invite-only install: refused outright)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: '10.9.9.9',
      payload: { email: 'stranger@example.com', password: TEST_PASSWORD, role: 'admin', isAdmin: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SIGNUP_NOT_ALLOWED');
  });

  it('an invited viewer who signs up with role admin in the body is a viewer', async () => {
    await app.inject({
      method: 'POST',
      url: rest('user_roles'),
      headers: users.admin!.headers,
      payload: { user_id: 'invited@example.com', role: 'viewer' },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: '10.9.9.10',
      payload: { email: 'invited@example.com', password: TEST_PASSWORD, role: 'admin' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.role).toBe('viewer');
  });

  it('a demoted admin loses admin on the very next request, with the same token', async () => {
    const deputy = await signUpUser(app, { role: 'admin' });
    expect(
      (await app.inject({ method: 'GET', url: rest('user_roles'), headers: deputy.headers })).json().length,
    ).toBeGreaterThan(1);
    await app.inject({
      method: 'PATCH',
      url: rest(`user_roles?user_id=eq.${deputy.email}`),
      headers: users.admin!.headers,
      payload: { role: 'viewer' },
    });
    const res = await app.inject({
      method: 'POST',
      url: rest('user_roles'),
      headers: deputy.headers,
      payload: { user_id: deputy.email, role: 'admin' },
    });
    expect(res.statusCode).toBe(403);
    expect(await roleNow(deputy)).toBe('viewer');
  });
});
