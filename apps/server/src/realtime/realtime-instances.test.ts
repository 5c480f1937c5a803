import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';
import { signUpUser, type TestUser } from '../test-support/users.js';
import { REDIS_URL, redisAvailable } from './test-support/redis.js';
import { openSocket } from './test-support/socket-client.js';

// Two server instances on one database and one Redis, as behind a load balancer.
let one: { app: FastifyInstance; url: string };
let two: { app: FastifyInstance; url: string };
let alice: TestUser;
let bob: TestUser;

async function listen(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

beforeAll(async () => {
  if (!redisAvailable) return;
  const first = await buildTestApp({ REDIS_URL });
  const second = await buildTestApp({ REDIS_URL }, { pool: first.pool });
  [one, two] = await Promise.all([listen(first.app), listen(second.app)]);
  [alice, bob] = await Promise.all([
    signUpUser(one.app, { role: 'technician' }),
    signUpUser(two.app, { role: 'viewer' }),
  ]);
});
afterAll(async () => {
  await two?.app.close();
  await one?.app.close();
});

describe.runIf(redisAvailable)('two instances on one Redis', () => {
  it("see each other's messages and presence", async () => {
    const channel = `crew-${Date.now()}`;
    const a = await openSocket(one.url, { access_token: alice.accessToken });
    const b = await openSocket(two.url, { access_token: bob.accessToken });
    a.send('subscribe', { channel });
    await a.next(a.ofType('subscribed'));
    b.send('subscribe', { channel });
    await b.next(b.ofType('subscribed'));
    const both = await a.next(
      (f) => f.type === 'presence' && (f.payload.data as { users: unknown[] }).users.length === 2,
    );
    expect((both.payload.data as { users: { userId: string }[] }).users.map((u) => u.userId).sort()).toEqual(
      [alice.id, bob.id].sort(),
    );

    b.send('publish', { channel, type: 'note', data: 'from instance two' });
    expect((await a.next(a.ofType('message'))).payload).toMatchObject({
      channel,
      data: 'from instance two',
      userId: bob.id,
    });
    a.send('publish', { channel, type: 'note', data: 'from instance one' });
    expect((await b.next((f) => f.type === 'message' && f.payload.data === 'from instance one')).payload.userId).toBe(
      alice.id,
    );

    const presence = await one.app.inject({
      method: 'GET',
      url: `/api/realtime/fieldassist/presence?channel=${channel}`,
      headers: alice.headers,
    });
    expect(presence.json().count).toBe(2);
    a.close();
    b.close();
  });

  it('a client that reconnects to the other instance catches up from its last id', async () => {
    const channel = `handover-${Date.now()}`;
    const a = await openSocket(one.url, { access_token: alice.accessToken });
    a.send('subscribe', { channel });
    await a.next(a.ofType('subscribed'));
    const publish = (data: number) =>
      two.app.inject({
        method: 'POST',
        url: '/api/realtime/fieldassist/publish',
        headers: bob.headers,
        payload: { channel, type: 't', data },
      });
    await publish(0);
    const last = await a.next(a.ofType('message'));
    a.close();
    await a.closed;
    for (let i = 1; i <= 3; i++) await publish(i);
    const again = await openSocket(two.url, { access_token: alice.accessToken });
    again.send('subscribe', { channel, lastId: last.payload.id });
    await again.next((f) => f.type === 'message' && f.payload.data === 3);
    expect(again.frames.filter((f) => f.type === 'message').map((f) => f.payload.data)).toEqual([1, 2, 3]);
    again.close();
  });
});
