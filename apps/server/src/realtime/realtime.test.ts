import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable } from './test-support/redis.js';
import { startTestServer } from '../test-support/test-server.js';
import { signUpUser, type TestUser } from '../test-support/users.js';
import { openSocket } from './test-support/socket-client.js';

let app: FastifyInstance;
let url: string;
let serviceKey: string;
let alice: TestUser;
let bob: TestUser;

// Every test runs on the in-process hub and on the Redis hub.
const hubs: [string, Record<string, string>][] = [
  ['memory', {}],
  ...(redisAvailable ? [['redis', { REDIS_URL }] as [string, Record<string, string>]] : []),
];
describe.each(hubs)('realtime on the %s hub', (_hub, env: Record<string, string>) => {
  beforeAll(async () => {
    ({ app, url, serviceKey } = await startTestServer(env));
    [alice, bob] = await Promise.all([signUpUser(app, { role: 'technician' }), signUpUser(app, { role: 'viewer' })]);
  });
  afterAll(() => app?.close());

  // Channel names of this run: the Redis hub keeps history and presence between runs.
  const run = Date.now().toString(36);

  const rest = (method: 'GET' | 'POST', path: string, headers: object, payload?: object) =>
    app.inject({
      method,
      url: `/api/realtime/fieldassist/${path}`,
      headers: headers as Record<string, string>,
      payload,
    });

  describe('the WebSocket', () => {
    it('says who it is, and refuses channels to a socket without a token, naming the reason', async () => {
      const client = await openSocket(url);
      const connected = await client.next(client.ofType('connected'));
      expect(connected.payload.socketId).toMatch(/^[0-9a-f]{16}$/);
      client.send('subscribe', { channel: 'room-1' });
      const error = await client.next(client.ofType('error'));
      expect(error.payload).toEqual({ error: 'Authentication required', code: 'UNAUTHORIZED', channel: 'room-1' });
      client.close();
    });

    it('delivers a message to every subscriber with an id, and acknowledges the publish', async () => {
      const a = await openSocket(url, { access_token: alice.accessToken });
      const b = await openSocket(url);
      b.send('auth', { token: bob.accessToken });
      await b.next(b.ofType('authenticated'));
      for (const client of [a, b]) {
        client.send('subscribe', { channel: 'room-1', metadata: { name: 'tablet' } });
        await client.next(client.ofType('subscribed', 'room-1'));
      }
      a.send('publish', { channel: 'room-1', type: 'note', data: { text: 'valve replaced' } });
      const ack = await a.next(a.ofType('published', 'room-1'));
      for (const client of [a, b]) {
        const message = await client.next(client.ofType('message', 'room-1'));
        expect(message.payload).toMatchObject({
          channel: 'room-1',
          type: 'note',
          data: { text: 'valve replaced' },
          userId: alice.id,
          id: ack.payload.messageId,
        });
        expect(message.payload.id).toMatch(/^\d+-\d+$/);
      }
      a.close();
      b.close();
    });

    it("keeps a user's own channel to that user", async () => {
      const b = await openSocket(url, { access_token: bob.accessToken });
      b.send('subscribe', { channel: `user:${alice.id}` });
      expect((await b.next(b.ofType('error'))).payload).toMatchObject({
        code: 'FORBIDDEN',
        channel: `user:${alice.id}`,
      });
      b.send('subscribe', { channel: `user:${bob.id}` });
      await b.next(b.ofType('subscribed', `user:${bob.id}`));
      b.close();
    });

    it('tells subscribers who is present, once per user, and forgets a closed socket', async () => {
      const a = await openSocket(url, { access_token: alice.accessToken });
      const b = await openSocket(url, { access_token: bob.accessToken });
      a.send('subscribe', { channel: `presence-room-${run}` });
      await a.next(a.ofType('subscribed', `presence-room-${run}`));
      const mark = a.frames.length;
      b.send('subscribe', { channel: `presence-room-${run}` });
      const presence = await a.next(
        (f) => f.type === 'presence' && (f.payload.data as { users: unknown[] }).users.length === 2,
        { from: mark },
      );
      // Two joins in one millisecond have no order of their own, so the users are compared as a set.
      const present = (presence.payload.data as { users: { userId: string }[] }).users.map((u) => u.userId);
      expect(present.sort()).toEqual([alice.id, bob.id].sort());
      expect((await rest('GET', `presence?channel=presence-room-${run}`, alice.headers)).json()).toMatchObject({
        channel: `presence-room-${run}`,
        count: 2,
      });
      b.close();
      await a.next((f) => f.type === 'presence' && (f.payload.data as { users: unknown[] }).users.length === 1);
      a.close();
    });

    it('sends a reconnecting client what it missed since its last id, in order, then live messages, with no duplicate', async () => {
      const first = await openSocket(url, { access_token: alice.accessToken });
      first.send('subscribe', { channel: `catch-up-${run}` });
      await first.next(first.ofType('subscribed'));
      await rest('POST', 'publish', bob.headers, { channel: `catch-up-${run}`, type: 't', data: 0 });
      const seen = await first.next(first.ofType('message'));
      first.close();
      await first.closed;
      for (let i = 1; i <= 5; i++)
        await rest('POST', 'publish', bob.headers, { channel: `catch-up-${run}`, type: 't', data: i });

      const again = await openSocket(url, { access_token: alice.accessToken });
      again.send('subscribe', { channel: `catch-up-${run}`, lastId: seen.payload.id });
      await again.next((f) => f.type === 'message' && f.payload.data === 5);
      await rest('POST', 'publish', bob.headers, { channel: `catch-up-${run}`, type: 't', data: 6 });
      await again.next((f) => f.type === 'message' && f.payload.data === 6);
      expect(again.frames.filter((f) => f.type === 'message').map((f) => f.payload.data)).toEqual([1, 2, 3, 4, 5, 6]);
      again.close();
    });

    it('answers a ping with a pong, and a malformed frame with an error', async () => {
      const a = await openSocket(url, { access_token: alice.accessToken });
      a.send('ping');
      await a.next(a.ofType('pong'));
      a.socket.send('not json');
      expect((await a.next(a.ofType('error'))).payload.code).toBe('INVALID_PARAMETER');
      a.close();
    });

    it('closes a socket for another project', async () => {
      const other = await openSocket(url, { project_id: 'someone-else' });
      expect((await other.next(other.ofType('error'))).payload.code).toBe('PROJECT_NOT_FOUND');
      expect((await other.closed).code).toBe(4404);
    });
  });

  describe('REST publish, presence and history', () => {
    it('refuses signed-out callers before looking at the input, and leaks nothing', async () => {
      for (const [method, path] of [
        ['POST', 'publish'],
        ['GET', 'presence?channel=x'],
        ['GET', 'messages?channel=x'],
      ] as const) {
        const res = await rest(method, path, {}, method === 'POST' ? {} : undefined);
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({
          error: 'Authentication required',
          message: 'Authentication required',
          code: 'UNAUTHORIZED',
        });
      }
      expect((await rest('GET', `messages?channel=user:${alice.id}`, bob.headers)).statusCode).toBe(403);
      expect((await rest('POST', 'publish', bob.headers, { channel: 'bad channel!', type: 't' })).json().code).toBe(
        'INVALID_PARAMETER',
      );
    });

    it('pages history with exclusive bounds, oldest first, the most recent within the limit', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++)
        ids.push(
          (
            await rest(
              'POST',
              'publish',
              { authorization: `Bearer ${serviceKey}` },
              { channel: `history-${run}`, type: 't', data: i },
            )
          ).json().messageId,
        );
      const page = (
        await rest('GET', `messages?channel=history-${run}&limit=2&start=${ids[1]}&end=${ids[5]}`, alice.headers)
      ).json();
      expect(page).toMatchObject({ channel: `history-${run}`, count: 2, hasMore: true });
      expect(page.messages.map((m: { data: number }) => m.data)).toEqual([3, 4]);
      expect((await rest('GET', `messages?channel=history-${run}&start=nonsense`, alice.headers)).statusCode).toBe(400);
    });
  });

  describe('the product', () => {
    it("tells a user's other devices that a job changed, on that user's channel", async () => {
      const phone = await openSocket(url, { access_token: alice.accessToken });
      phone.send('subscribe', { channel: `user:${alice.id}` });
      await phone.next(phone.ofType('subscribed'));
      const job = {
        id: `job-${Date.now()}`,
        user_id: alice.id,
        title: 'AC Unit Repair',
        description: 'No cooling',
        status: 'pending',
        priority: 'medium',
        created_at: Date.now(),
        updated_at: Date.now(),
      };
      const created = await app.inject({
        method: 'POST',
        url: '/api/db/fieldassist/rest/v1/jobs',
        headers: alice.headers,
        payload: job,
      });
      expect(created.statusCode).toBe(201);
      await phone.next(
        (f) =>
          f.type === 'message' &&
          f.payload.type === 'jobs.changed' &&
          (f.payload.data as { ids: string[] }).ids[0] === job.id,
      );
      const mark = phone.frames.length;
      await app.inject({
        method: 'PATCH',
        url: `/api/db/fieldassist/rest/v1/jobs?id=eq.${job.id}`,
        headers: alice.headers,
        payload: { status: 'completed', updated_at: Date.now() },
      });
      expect((await phone.next(phone.ofType('message'), { from: mark })).payload).toMatchObject({
        channel: `user:${alice.id}`,
        data: { ids: [job.id] },
      });
      phone.close();
    });

    it("pushes a manual's processing status to the manuals channel as it changes", async () => {
      const viewer = await openSocket(url, { access_token: bob.accessToken });
      viewer.send('subscribe', { channel: 'manuals' });
      await viewer.next(viewer.ofType('subscribed'));
      const service = { authorization: `Bearer ${serviceKey}` };
      await app.inject({
        method: 'POST',
        url: '/api/db/fieldassist/rest/v1/manuals',
        headers: service,
        payload: { id: 'manual_live', title: 'Gone', file_url: 'https://x.test/none.pdf', file_name: 'none.pdf' },
      });
      const failed = await viewer.next(
        (f) => f.type === 'message' && (f.payload.data as { status: string }).status === 'failed',
        { ms: 15_000 },
      );
      expect(failed.payload).toMatchObject({
        channel: 'manuals',
        type: 'manual.status',
        data: { manualId: 'manual_live', error: "The manual's file could not be found" },
      });
      viewer.close();
    });
  });
});
