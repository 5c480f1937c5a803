import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_SERVICE_KEY, buildTestApp } from '../../src/test-support/test-server.js';
import { type TestUser, signUpUser } from '../../src/test-support/users.js';

// Another user's jobs, chat history and profile, attacked through every form of the REST API
// that policies.test.ts does not already try (it covers get/list by id, create, PATCH and
// DELETE by id, the job upsert and the job count): filters, groups, counts, exists, cursors,
// upserts and bulk writes. Each answer must show none of the victim's rows, and the victim's
// rows must be unchanged afterwards.

const SECRET = 'victim-secret-7f3a';
const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };
const rest = (path: string) => `/api/db/fieldassist/rest/v1/${path}`;
const q = encodeURIComponent;

let app: FastifyInstance;
let victim: TestUser;
const attackers: Record<string, TestUser> = {};
let jobId: string;
let chatId: string;

async function asService(method: 'GET' | 'POST', path: string, payload?: object) {
  const res = await app.inject({ method, url: rest(path), headers: service, payload });
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.body}`);
  return res.json<Record<string, unknown>[]>();
}

/** The victim's rows as the service key sees them. */
async function victimRows() {
  return {
    jobs: await asService('GET', `jobs?user_id=eq.${victim.id}&order=id`),
    chat: await asService('GET', `chat_messages?user_id=eq.${victim.id}&order=id`),
    profile: await asService('GET', `users?id=eq.${q(victim.email)}`),
  };
}

beforeAll(async () => {
  ({ app } = await buildTestApp());
  attackers.admin = await signUpUser(app, { email: 'admin@example.com' }); // first account: admin
  attackers.technician = await signUpUser(app, { role: 'technician' });
  attackers.viewer = await signUpUser(app, { role: 'viewer' });
  victim = await signUpUser(app, { role: 'technician', email: 'victim@example.com' });
  await app.inject({
    method: 'PATCH',
    url: rest(`users?id=eq.${victim.email}`),
    headers: victim.headers,
    payload: { phone: SECRET, display_name: SECRET },
  });
  jobId = String((await asService('POST', 'jobs', { user_id: victim.id, title: SECRET, description: SECRET }))[0]!.id);
  chatId = String(
    (await asService('POST', 'chat_messages', { user_id: victim.id, message: SECRET, response: SECRET }))[0]!.id,
  );
  // Each attacker owns a row of each kind, so "nothing" cannot pass for "only mine".
  for (const a of Object.values(attackers)) {
    await asService('POST', 'jobs', { user_id: a.id, title: 'mine', description: 'mine' });
    await asService('POST', 'chat_messages', { user_id: a.id, message: 'mine', response: 'mine' });
  }
});

/** Reads that must come back without the victim's rows: [form, url]. */
const reads: [string, () => string][] = [
  ['jobs by owner filter', () => `jobs?user_id=eq.${victim.id}`],
  ['jobs by text filter', () => `jobs?title=like.*${SECRET}*`],
  ['jobs by ilike on description', () => `jobs?description=ilike.%25${SECRET.toUpperCase()}%25`],
  ['jobs by raw not', () => `jobs?user_id=not.nobody`],
  ['jobs by not.in', () => `jobs?id=not.in.(nothing)`],
  ['jobs by or-group', () => `jobs?or=${q(`(user_id=eq.${victim.id},id=eq.${jobId})`)}`],
  ['jobs by nested group', () => `jobs?and=${q(`(or=(user_id=eq.${victim.id},title=eq.${SECRET}),id=neq.x)`)}`],
  ['jobs by an always-true or-group', () => `jobs?or=${q('(id=neq.x,id=eq.x,id=is.null)')}`],
  ['jobs with a select list', () => `jobs?select=title,description&id=eq.${jobId}`],
  ['jobs by cursor and order', () => `jobs?cursor=${jobId}&order=title.desc`],
  ['jobs with a large offset and order', () => `jobs?order=user_id.desc&offset=0&limit=1000`],
  ['chat by owner filter', () => `chat_messages?user_id=eq.${victim.id}`],
  ['chat by id list', () => `chat_messages?id=in.(${chatId},x)`],
  ['chat by text filter', () => `chat_messages?message=like.%25${SECRET}%25`],
  ['chat by or-group', () => `chat_messages?or=${q(`(user_id=eq.${victim.id},response=eq.${SECRET})`)}`],
  ['chat by cursor', () => `chat_messages?cursor=${chatId}`],
  ['chat get by id', () => `chat_messages?id=eq.${chatId}&limit=1`],
  ['profile by email filter', () => `users?email=eq.${victim.email}`],
  ['profile by phone filter', () => `users?phone=eq.${SECRET}`],
  ['profile by or-group', () => `users?or=${q(`(id=eq.${victim.email},email=ilike.victim%)`)}`],
  ['profile by cursor', () => `users?cursor=${q(victim.email)}`],
  ['profile get by id', () => `users?id=eq.${q(victim.email)}&limit=1`],
  ['role of the victim', () => `user_roles?user_id=eq.${victim.email}`],
];

/** Counts and exists (`Prefer: count=exact` on `select=id`): the total must not count the victim's rows. */
const counts: [string, () => string][] = [
  ['count jobs by owner', () => `jobs?select=id&user_id=eq.${victim.id}`],
  ['exists job by id', () => `jobs?select=id&id=eq.${jobId}`],
  ['exists job by secret text', () => `jobs?select=id&title=eq.${SECRET}`],
  ['count chat by owner', () => `chat_messages?select=id&user_id=eq.${victim.id}`],
  ['exists chat by id', () => `chat_messages?select=id&or=${q(`(id=eq.${chatId})`)}`],
  ['exists profile by phone', () => `users?select=id&phone=eq.${SECRET}`],
  ['exists profile by email', () => `users?select=id&email=eq.${victim.email}`],
];

describe.each(['technician', 'viewer'] as const)("a %s reading another user's rows", (who) => {
  it.each(reads)('%s: no row of the victim comes back', async (_form, url) => {
    const res = await app.inject({ method: 'GET', url: rest(url()), headers: attackers[who]!.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain(victim.id);
    expect(res.body).not.toContain(victim.email);
  });

  it.each(counts)('%s: the total is 0 and the page empty', async (_form, url) => {
    const res = await app.inject({
      method: 'GET',
      url: rest(url()),
      headers: { ...attackers[who]!.headers, prefer: 'count=exact' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-range']).toBe('*/0');
    expect(res.json()).toEqual([]);
  });
});

describe("an admin reading another user's jobs and chat history", () => {
  // SPEC.md section 6: jobs and chat history are filtered by the current user's id, for admins too.
  it.each(reads.filter(([form]) => !form.startsWith('profile') && !form.startsWith('role')))(
    "%s: none of the victim's",
    async (_form, url) => {
      const res = await app.inject({ method: 'GET', url: rest(url()), headers: attackers.admin!.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(SECRET);
    },
  );

  it("counts only the admin's own jobs", async () => {
    const res = await app.inject({
      method: 'GET',
      url: rest('jobs?select=id'),
      headers: { ...attackers.admin!.headers, prefer: 'count=exact' },
    });
    expect(res.headers['content-range']).toBe('0-0/1');
  });
});

/** Writes that must change nothing of the victim's: [form, method, url, body, accepted statuses]. */
const writes = (
  attacker: TestUser,
  target: TestUser,
): [string, 'PATCH' | 'DELETE' | 'POST', string, object | undefined, number][] => [
  ['PATCH jobs by owner filter', 'PATCH', `jobs?user_id=eq.${target.id}`, { title: 'pwned' }, 200],
  [
    'PATCH jobs by or-group',
    'PATCH',
    `jobs?or=${q(`(user_id=eq.${target.id},id=eq.${jobId})`)}`,
    { status: 'completed' },
    200,
  ],
  ['PATCH jobs by always-true filter', 'PATCH', 'jobs?id=neq.x', { description: 'pwned' }, 200],
  ['PATCH jobs by id handing it to the attacker', 'PATCH', `jobs?id=eq.${jobId}`, { user_id: attacker.id }, 404],
  ['PATCH own jobs handing them to the victim', 'PATCH', `jobs?user_id=eq.${attacker.id}`, { user_id: target.id }, 403],
  ['DELETE jobs by owner filter', 'DELETE', `jobs?user_id=eq.${target.id}`, undefined, 200],
  ['DELETE jobs by or-group', 'DELETE', `jobs?or=${q(`(id=eq.${jobId},title=eq.${SECRET})`)}`, undefined, 200],
  ['DELETE jobs by not.in', 'DELETE', `jobs?id=not.in.(x)&user_id=eq.${target.id}`, undefined, 200],
  [
    'upsert jobs with on_conflict=id, no user_id sent',
    'POST',
    'jobs?on_conflict=id',
    { id: jobId, title: 'pwned', description: 'pwned' },
    403,
  ],
  [
    'bulk create with one row for the victim',
    'POST',
    'jobs',
    [
      { user_id: attacker.id, title: 'ok', description: 'ok' },
      { user_id: target.id, title: 'planted', description: 'planted' },
    ],
    403,
  ],
  ['PATCH chat by owner filter', 'PATCH', `chat_messages?user_id=eq.${target.id}`, { response: 'pwned' }, 200],
  ['PATCH chat by id list', 'PATCH', `chat_messages?id=in.(${chatId})`, { response: 'pwned' }, 200],
  ['DELETE chat by owner filter', 'DELETE', `chat_messages?user_id=eq.${target.id}`, undefined, 200],
  [
    'DELETE chat by or-group',
    'DELETE',
    `chat_messages?or=${q(`(id=eq.${chatId},message=eq.${SECRET})`)}`,
    undefined,
    200,
  ],
  [
    'upsert chat with on_conflict=id',
    'POST',
    'chat_messages?on_conflict=id',
    { id: chatId, user_id: attacker.id, message: 'pwned', response: 'pwned' },
    201,
  ],
  [
    'upsert chat onto the victim as owner',
    'POST',
    'chat_messages?on_conflict=id',
    { id: chatId, user_id: target.id, message: 'pwned', response: 'pwned' },
    403,
  ],
  ['PATCH profile by email filter', 'PATCH', `users?email=eq.${target.email}`, { display_name: 'pwned' }, 200],
  [
    'PATCH profile by or-group',
    'PATCH',
    `users?or=${q(`(id=eq.${target.email},phone=eq.${SECRET})`)}`,
    { phone: 'pwned' },
    200,
  ],
  ['PATCH profile by id', 'PATCH', `users?id=eq.${q(target.email)}`, { display_name: 'pwned' }, 404],
  ['DELETE profile by filter', 'DELETE', `users?email=eq.${target.email}`, undefined, 403],
  [
    'upsert profile with on_conflict=id',
    'POST',
    'users?on_conflict=id',
    { id: target.email, email: target.email, display_name: 'pwned' },
    403,
  ],
  [
    'upsert profile with on_conflict=email',
    'POST',
    'users?on_conflict=email',
    { email: target.email, display_name: 'pwned' },
    403,
  ],
];

// The table is listed before the users exist: the names are the same for any users.
const placeholder = { id: 'someone', email: 'someone@example.com' } as TestUser;

describe.each(['technician', 'viewer'] as const)("a %s writing another user's rows", (who) => {
  it.each(writes(placeholder, placeholder).map(([form], i) => [form, i] as const))(
    '%s: refused or a no-op, and nothing changes',
    async (_form, i) => {
      const attacker = attackers[who]!;
      const [, method, url, payload, status] = writes(attacker, victim)[i]!;
      const before = await victimRows();
      const res = await app.inject({ method, url: rest(url), headers: attacker.headers, payload });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.body).not.toContain(SECRET);
      // An always-true filter may reach the attacker's own rows, and only those.
      if (status < 300)
        for (const row of res.json<Record<string, unknown>[]>())
          expect([row.user_id, row.id]).toContain(row.user_id === undefined ? attacker.email : attacker.id);
      if (status >= 400) expect(Object.keys(res.json())).toEqual(['error', 'message', 'code']);
      expect(await victimRows()).toEqual(before);
    },
  );
});

describe('after every attack', () => {
  it('the victim still sees their own rows, unchanged', async () => {
    const res = await app.inject({ method: 'GET', url: rest(`jobs?id=eq.${jobId}`), headers: victim.headers });
    expect(res.json()).toMatchObject([{ title: SECRET, description: SECRET, status: 'pending' }]);
    const chat = await app.inject({ method: 'GET', url: rest('chat_messages'), headers: victim.headers });
    expect(chat.json()).toMatchObject([{ id: chatId, message: SECRET, response: SECRET }]);
    const me = await app.inject({ method: 'GET', url: rest('users'), headers: victim.headers });
    expect(me.json()).toMatchObject([{ id: victim.email, display_name: SECRET, phone: SECRET }]);
  });
});
