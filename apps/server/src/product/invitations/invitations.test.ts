// POST /api/app/{projectId}/invitations in the real app: refusals first, then the rows it
// writes, the invitation email, and the sign-up that invitation allows.
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test-support/test-server.js';
import { signUpUser, TEST_PASSWORD, type TestUser } from '../../test-support/users.js';

let app: FastifyInstance;
let projectId: string;
let admin: TestUser;
let technician: TestUser;

beforeAll(async () => {
  ({ app, projectId } = await buildTestApp());
  admin = await signUpUser(app); // the first account of a fresh install is admin
  technician = await signUpUser(app, { role: 'technician' });
});

const invite = (payload: unknown, headers: Record<string, string> = admin.headers) =>
  app.inject({ method: 'POST', url: `/api/app/${projectId}/invitations`, payload: payload as object, headers });

const newEmail = () => `invitee-${Math.random().toString(16).slice(2, 10)}@example.com`;

describe('refusals', () => {
  it('signed out is 401, even with a bad body', async () => {
    const res = await invite({}, {});
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('a technician is refused with 403, before the body is read, and nothing is written', async () => {
    const email = newEmail();
    for (const payload of [{ email, displayName: 'Tess', role: 'admin' }, {}]) {
      const res = await invite(payload, technician.headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'Only admins can add users',
        message: 'Only admins can add users',
        code: 'FORBIDDEN',
      });
    }
    const rows = await app.inject({
      method: 'GET',
      url: `/api/db/${projectId}/rest/v1/users?id=eq.${email}`,
      headers: admin.headers,
    });
    expect(rows.json()).toEqual([]);
  });

  it('bad input is 400 VALIDATION_ERROR naming the field', async () => {
    const cases: [object, string][] = [
      [{ displayName: 'A', role: 'technician' }, 'body.email'],
      [{ email: 'not-an-email', displayName: 'A', role: 'technician' }, 'body.email'],
      [{ email: newEmail(), displayName: '  ', role: 'technician' }, 'body.displayName'],
      [{ email: newEmail(), displayName: 'A', role: 'owner' }, 'body.role'],
    ];
    for (const [payload, field] of cases) {
      const res = await invite(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
    }
  });
});

describe('adding a user', () => {
  it('writes the users and userRoles rows, emails a sign-in link, and answers 409 the second time', async () => {
    const email = newEmail();
    const res = await invite({
      email: `  ${email.toUpperCase()} `,
      displayName: 'Nina Novak',
      phone: '+1 555 0100',
      role: 'manager',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      user: { id: email, email, displayName: 'Nina Novak', phone: '+1 555 0100', role: 'manager' },
      userRole: { userId: email, role: 'manager', assignedBy: admin.email },
      invitationSent: true,
      deliveredTo: 'outbox',
    });
    expect(body.userRole.id).toMatch(/^role_[0-9a-f]{24}$/);

    const users = await app.inject({
      method: 'GET',
      url: `/api/db/${projectId}/rest/v1/users?id=eq.${email}`,
      headers: admin.headers,
    });
    expect(users.json()[0]).toMatchObject({
      id: email,
      email,
      display_name: 'Nina Novak',
      phone: '+1 555 0100',
      email_verified: 0,
      phone_verified: 0,
      avatar_url: null,
    });
    const roles = await app.inject({
      method: 'GET',
      url: `/api/db/${projectId}/rest/v1/user_roles?user_id=eq.${email}`,
      headers: admin.headers,
    });
    expect(roles.json()[0]).toMatchObject({ id: body.userRole.id, role: 'manager', assigned_by: admin.email });

    const outbox = (await app.inject({ method: 'GET', url: `/dev/outbox.json?to=${email}` })).json();
    expect(outbox.messages).toHaveLength(1);
    expect(outbox.messages[0].subject).toMatch(/invited you to FieldAssist/);
    expect(outbox.messages[0].links.some((link: string) => link.includes('/auth?magic_token='))).toBe(true);

    const again = await invite({ email, displayName: 'Nina', role: 'technician' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'EMAIL_ALREADY_EXISTS',
      message: 'An account with this email already exists.',
    });
  });

  it('an existing account cannot be added again, and an invited email may now sign up with its role', async () => {
    expect((await invite({ email: technician.email, displayName: 'T', role: 'viewer' })).statusCode).toBe(409);

    const email = newEmail();
    expect((await invite({ email, displayName: 'Vic', role: 'viewer' })).statusCode).toBe(201);
    const signup = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: TEST_PASSWORD, projectId },
    });
    expect(signup.statusCode).toBe(200);
    expect(signup.json().user).toMatchObject({ email, role: 'viewer' });
  });
});
