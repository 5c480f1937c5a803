import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SERVICE_KEY, buildTestApp } from '../test-support/test-server.js';
import { type TestUser, signUpUser } from '../test-support/users.js';
import { type Action, policies } from './policies.js';

// The permission matrix: every table x action x caller through the real REST API. Each
// expectation is SPEC.md section 6 / issue 3 written down; every refusal must leak no row
// and change nothing.

type Who = 'anonymous' | 'noRole' | 'viewer' | 'technician' | 'manager' | 'admin';
type Outcome = 'allow' | 'hidden' | 401 | readonly [403, string];
type Row = Record<string, unknown>;

interface TableCase {
  name: string;
  table: string;
  /** Owned rows are tried on the caller's own row and on another user's. */
  owned?: boolean;
  fixture: (owner: TestUser) => Row;
  create: (owner: TestUser) => Row;
  update: Row;
  expect: (action: Action, who: Who, own: boolean) => Outcome;
}

const users: Partial<Record<Exclude<Who, 'anonymous'>, TestUser>> = {};
let other: TestUser;
let app: FastifyInstance;
const id = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;
const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };
// SPEC.md section 6: admins and technicians write the library; managers read it.
const librarian = (who: Who) => who === 'admin' || who === 'technician';
const signedIn =
  (outcome: (who: Who) => Outcome) =>
  (who: Who): Outcome =>
    who === 'anonymous' ? 401 : outcome(who);

const ownedRows =
  (noun: string) =>
  (action: Action, who: Who, own: boolean): Outcome =>
    signedIn(() => (own ? 'allow' : action === 'create' ? [403, `You can only write your own ${noun}`] : 'hidden'))(
      who,
    );

const library =
  (createMessage: string, deleteMessage: string, deleteRoles: Who[] = ['admin']) =>
  (action: Action, who: Who): Outcome =>
    signedIn(() => {
      if (action === 'list' || action === 'get') return 'allow';
      if (action === 'delete') return deleteRoles.includes(who) ? 'allow' : [403, deleteMessage];
      return librarian(who) ? 'allow' : [403, createMessage];
    })(who);

const cases: TableCase[] = [
  {
    name: 'jobs',
    table: 'jobs',
    owned: true,
    fixture: (o) => ({ id: id('job'), user_id: o.id, title: 'AC Unit Repair', description: 'noise' }),
    create: (o) => ({ user_id: o.id, title: 'New', description: 'd' }),
    update: { status: 'completed' },
    expect: ownedRows('jobs'),
  },
  {
    name: 'chat_messages',
    table: 'chat_messages',
    owned: true,
    fixture: (o) => ({ id: id('chat'), user_id: o.id, message: '{"content":"hi"}', response: '{"content":"hello"}' }),
    create: (o) => ({ user_id: o.id, message: '{}', response: '{}' }),
    update: { response: '{"content":"changed"}' },
    expect: ownedRows('chat messages'),
  },
  {
    name: 'release_versions',
    table: 'release_versions',
    fixture: () => ({ id: id('ver'), version_name: 'V1', release_year: 2024 }),
    create: () => ({ version_name: 'V2', release_year: 2025 }),
    update: { description: 'changed' },
    expect: library('You do not have permission to create versions', 'Only admins can delete versions'),
  },
  {
    name: 'tags',
    table: 'tags',
    fixture: () => ({ id: id('tag'), name: 'Pumps' }),
    create: () => ({ name: 'Valves' }),
    update: { color: '#000000' },
    expect: library('You do not have permission to create tags', 'Only admins can delete tags'),
  },
  {
    name: 'manuals',
    table: 'manuals',
    fixture: () => ({ id: id('manual'), title: 'Pump manual', file_url: '/f/a.pdf', file_name: 'a.pdf' }),
    create: () => ({ title: 'Boiler manual', file_url: '/f/b.pdf', file_name: 'b.pdf' }),
    update: { description: 'changed' },
    expect: library('You do not have permission to upload manuals', 'Only admins can delete manuals'),
  },
  {
    name: 'manuals (system planner)',
    table: 'manuals',
    fixture: () => ({
      id: id('manual'),
      title: 'Planner',
      file_url: '/f/p.pdf',
      file_name: 'p.pdf',
      document_type: 'system_planner',
    }),
    create: () => ({ title: 'Planner 2', file_url: '/f/p2.pdf', file_name: 'p2.pdf', document_type: 'system_planner' }),
    update: { description: 'changed' },
    expect: (action, who) =>
      signedIn(() => {
        const sees = who === 'admin' || who === 'technician';
        if (action === 'list' || action === 'get') return sees ? 'allow' : 'hidden';
        if (action === 'delete') return who === 'admin' ? 'allow' : [403, 'Only admins can delete manuals'];
        if (!librarian(who)) return [403, 'You do not have permission to upload manuals'];
        if (sees) return 'allow';
        return action === 'create' ? [403, 'You do not have permission to upload system planners'] : 'hidden';
      })(who),
  },
  {
    name: 'manual_tags',
    table: 'manual_tags',
    fixture: () => ({ id: id('mt'), manual_id: 'manual_base', tag_id: freshTag() }),
    create: () => ({ manual_id: 'manual_base', tag_id: freshTag() }),
    update: { created_at: '2020-01-01T00:00:00Z' },
    expect: library('You do not have permission to upload manuals', 'You do not have permission to upload manuals', [
      'admin',
      'technician',
    ]),
  },
  {
    name: 'manual_content',
    table: 'manual_content',
    fixture: () => ({ id: id('mc'), manual_id: 'manual_base', extracted_text: 'Reset the pump with E42' }),
    create: () => ({ manual_id: 'manual_base', extracted_text: 'x' }),
    update: { chunk_index: 1 },
    expect: (action, who) =>
      signedIn(() => (action === 'list' || action === 'get' ? 'allow' : [403, 'This table is written by the server']))(
        who,
      ),
  },
  {
    name: 'user_roles',
    table: 'user_roles',
    owned: true,
    fixture: (o) =>
      o === other ? { id: id('role'), user_id: `${id('someone')}@example.com`, role: 'viewer' } : { existing: true },
    create: () => ({ user_id: `${id('new')}@example.com`, role: 'admin' }),
    update: { role: 'admin' },
    expect: (action, who, own) =>
      signedIn(() => {
        if (action === 'list' || action === 'get') return own || who === 'admin' ? 'allow' : 'hidden';
        if (who !== 'admin')
          return [403, action === 'delete' ? 'Only admins can delete user roles' : 'Only admins can assign user roles'];
        return 'allow';
      })(who),
  },
  {
    name: 'users',
    table: 'users',
    owned: true,
    fixture: (o) =>
      o === other ? { id: `${id('person')}@example.com`, email: `${id('person')}@example.com` } : { existing: true },
    create: () => {
      const email = `${id('added')}@example.com`;
      return { id: email, email, display_name: 'Added' };
    },
    update: { display_name: 'Renamed', phone: '555-0100' },
    expect: (action, who, own) =>
      signedIn(() => {
        if (action === 'delete') return [403, 'This table is written by the server'];
        if (action === 'create') return who === 'admin' ? 'allow' : [403, 'Only admins can add users'];
        return own || who === 'admin' ? 'allow' : 'hidden';
      })(who),
  },
];

let tagCount = 0;
const pendingTags: string[] = [];
function freshTag() {
  const tag = `tag_m${++tagCount}_${randomBytes(3).toString('hex')}`;
  pendingTags.push(tag);
  return tag;
}

async function asService(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) {
  const res = await app.inject({
    method,
    url: `/api/db/fieldassist/rest/v1/${path}`,
    headers: service,
    payload: payload as object,
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.body}`);
  return res.json() as Row[];
}

// The ingestion worker writes these on its own while the test runs (the files here do not exist).
const serverWritten = ['processing_status', 'processing_error', 'page_count'];

/** The rows a caller's request might change, without the columns the server itself keeps writing. */
async function snapshot(table: string) {
  const rows = await asService('GET', `${table}?order=id`);
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([column]) => !serverWritten.includes(column))),
  );
}

async function flushTags() {
  while (pendingTags.length) await asService('POST', 'tags', { id: pendingTags.pop(), name: 'link tag' });
}

/** The row an owned case acts on: the caller's own (existing) row, or a fresh one of another user. */
async function prepareRow(c: TableCase, who: Who, own: boolean): Promise<Row> {
  const caller = who === 'anonymous' ? other : users[who]!;
  const spec = c.fixture(own ? caller : other);
  if (spec.existing) {
    const column = c.table === 'users' ? 'id' : 'user_id';
    return (await asService('GET', `${c.table}?${column}=eq.${encodeURIComponent(caller.email)}`))[0]!;
  }
  await flushTags();
  return (await asService('POST', c.table, spec))[0]!;
}

beforeAll(async () => {
  ({ app } = await buildTestApp());
  users.admin = await signUpUser(app, { email: 'admin@example.com' });
  for (const role of ['technician', 'manager', 'viewer'] as const)
    users[role] = await signUpUser(app, { role, email: `${role}@example.com` });
  users.noRole = await signUpUser(app, { email: 'norole@example.com' });
  other = await signUpUser(app, { role: 'technician', email: 'other@example.com' });
  await asService('POST', 'manuals', {
    id: 'manual_base',
    title: 'Base',
    file_url: '/f/base.pdf',
    file_name: 'base.pdf',
  });
});

it('has expectations for every table with a policy', () => {
  expect(new Set(cases.map((c) => c.table))).toEqual(new Set(Object.keys(policies)));
});

const whos: Who[] = ['anonymous', 'noRole', 'viewer', 'technician', 'manager', 'admin'];
const actions: Action[] = ['list', 'get', 'create', 'update', 'delete'];
const matrix = cases.flatMap((c) =>
  actions.flatMap((action) =>
    whos.flatMap((who) => {
      const owns = c.owned ? [true, false] : [true];
      // Nobody owns a role row without a role, or acts on their own role or users row with create.
      return owns
        .filter((own) => !(c.owned && own && who === 'anonymous'))
        .filter(
          (own) => !(c.table === 'user_roles' && own && (who === 'noRole' || (action !== 'list' && action !== 'get'))),
        )
        .map((own) => ({ c, action, who, own, outcome: c.expect(action, who, own) }));
    }),
  ),
);

describe.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
  it.each(
    matrix
      .filter((m) => m.c === c)
      .map((m) => [m.action, m.who, m.own ? 'own row' : "another user's row", m.outcome, m] as const),
  )('%s by %s on %s -> %j', async (_a, _w, _o, outcome, { action, who, own }) => {
    const row = await prepareRow(c, who, own);
    const rowId = String(row.id);
    const before = await snapshot(c.table);
    const headers = who === 'anonymous' ? {} : users[who]!.headers;
    const caller = who === 'anonymous' ? other : users[who]!;
    await flushTags();
    const createBody = c.create(own ? caller : other);
    await flushTags();
    const request = {
      list: { method: 'GET', url: `${c.table}?id=in.(${rowId},nothing)` },
      get: { method: 'GET', url: `${c.table}?id=eq.${encodeURIComponent(rowId)}&limit=1` },
      create: { method: 'POST', url: c.table, payload: createBody },
      update: { method: 'PATCH', url: `${c.table}?id=eq.${encodeURIComponent(rowId)}`, payload: c.update },
      delete: { method: 'DELETE', url: `${c.table}?id=eq.${encodeURIComponent(rowId)}` },
    }[action] as { method: 'GET'; url: string; payload?: object };
    const res = await app.inject({ ...request, url: `/api/db/fieldassist/rest/v1/${request.url}`, headers });

    if (outcome === 'allow') {
      expect(res.statusCode, res.body).toBeLessThan(300);
      if (action === 'list' || action === 'get') expect(res.json()).toMatchObject([{ id: rowId }]);
      if (action === 'create') expect((await asService('GET', `${c.table}?order=id`)).length).toBe(before.length + 1);
      return;
    }
    if (outcome === 'hidden') {
      if (action === 'list' || action === 'get' || action === 'delete') {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
      } else {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          error: `Record with id ${rowId} not found.`,
          message: `Record with id ${rowId} not found.`,
          code: 'NOT_FOUND',
        });
      }
    } else if (outcome === 401) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    } else {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: outcome[1], message: outcome[1], code: 'FORBIDDEN' });
    }
    // A refusal leaks no row (a 404 repeats only the id the caller sent) and changes nothing.
    if (outcome !== 'hidden') expect(res.body).not.toContain(rowId);
    expect(await snapshot(c.table)).toEqual(before);
  });
});

describe('fields a user may not set', () => {
  it('a user cannot change their own email, role or flags through the users table', async () => {
    const user = users.viewer!;
    for (const payload of [{ email: 'x@example.com' }, { role: 'admin' }, { email_verified: 1 }]) {
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/db/fieldassist/rest/v1/users?id=eq.${user.email}`,
        headers: user.headers,
        payload,
      });
      expect(res.statusCode).toBe(403);
    }
  });

  it("a user cannot hand a job to someone else, and an upsert cannot take over another user's row", async () => {
    const tech = users.technician!;
    const job = (await asService('POST', 'jobs', { user_id: other.id, title: 'theirs', description: 'd' }))[0]!;
    const moved = await app.inject({
      method: 'PATCH',
      url: `/api/db/fieldassist/rest/v1/jobs?user_id=eq.${tech.id}`,
      headers: tech.headers,
      payload: { user_id: other.id },
    });
    expect(moved.statusCode).toBe(403);
    const upsert = await app.inject({
      method: 'POST',
      url: '/api/db/fieldassist/rest/v1/jobs?on_conflict=id',
      headers: tech.headers,
      payload: { id: job.id, user_id: tech.id, title: 'mine now', description: 'd' },
    });
    expect(upsert.statusCode, upsert.body).toBeLessThan(300);
    expect(upsert.json()).toEqual([]);
    expect((await asService('GET', `jobs?id=eq.${job.id}`))[0]).toMatchObject({ user_id: other.id, title: 'theirs' });
  });

  it("counts and filters never reach another user's rows", async () => {
    const tech = users.technician!;
    const res = await app.inject({
      method: 'GET',
      url: `/api/db/fieldassist/rest/v1/jobs?select=id&or=(user_id=eq.${other.id},user_id=neq.x)`,
      headers: { ...tech.headers, prefer: 'count=exact' },
    });
    expect(res.statusCode).toBe(200);
    const visible = (await asService('GET', `jobs?user_id=eq.${tech.id}&select=id`)).length;
    expect(res.headers['content-range']).toMatch(new RegExp(`/${visible}$`));
    expect(res.json()).toHaveLength(visible);
    const cursor = await app.inject({
      method: 'GET',
      url: `/api/db/fieldassist/rest/v1/jobs?cursor=${(await asService('GET', `jobs?user_id=eq.${other.id}`))[0]!.id}`,
      headers: tech.headers,
    });
    expect(cursor.json()).toEqual([]);
  });

  it('raw SQL stays closed to every user, admins included', async () => {
    for (const user of Object.values(users)) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/db/fieldassist/sql',
        headers: user!.headers,
        payload: { query: 'SELECT * FROM auth_accounts' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('password');
    }
  });
});
