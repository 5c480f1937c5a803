// `client.realtime` against the real server's WebSocket, driven from Node with the `ws` package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer } from '../../../../apps/server/src/test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../../apps/server/src/test-support/users.js';
import { FieldAssistRealtimeError } from '../errors.js';
import { createHttpCore } from '../http.js';
import { createRealtime } from './index.js';
import { reconnectDelay } from './timing.js';
import type { RealtimeMessage, RealtimeState, WebSocketLike } from './types.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([
    signUpUser(server.app, { role: 'technician' }),
    signUpUser(server.app, { role: 'viewer' }),
  ]);
});
afterAll(() => server?.close());

/** A realtime client for `user`, keeping the sockets it opens so a test can cut them. */
function realtimeFor(user: TestUser | null) {
  const sockets: WebSocket[] = [];
  const getAccessToken = async () => user?.accessToken ?? null;
  const http = createHttpCore({ baseUrl: server.url, fetch: (input, init) => fetch(input, init), getAccessToken });
  const realtime = createRealtime({
    http,
    projectId: 'fieldassist',
    getAccessToken,
    random: () => 0,
    createSocket: (url) => {
      const socket = new WebSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocketLike;
    },
  });
  const states: RealtimeState[] = [];
  realtime.onStateChange((state) => states.push(state));
  return { realtime, sockets, states };
}

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('client.realtime', () => {
  it('subscribes, publishes with an acknowledged id, and delivers to every subscriber', async () => {
    const a = realtimeFor(alice);
    const b = realtimeFor(bob);
    const got: RealtimeMessage[] = [];
    await a.realtime.subscribe('crew', (m) => got.push(m));
    const channel = await b.realtime.subscribe('crew', () => undefined);
    expect(a.realtime.state).toBe('subscribed');
    expect(a.states).toEqual(['connecting', 'connected', 'subscribed']);
    const id = await channel.publish('note', { text: 'pump primed' });
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ id, channel: 'crew', type: 'note', data: { text: 'pump primed' }, userId: bob.id });
    expect(await a.realtime.presence('crew')).toHaveLength(2);
    a.realtime.close();
    b.realtime.close();
  });

  it("refuses another user's channel, and a client without a token", async () => {
    const b = realtimeFor(bob);
    const refused = await b.realtime.subscribe(`user:${alice.id}`, () => undefined).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FieldAssistRealtimeError);
    expect(refused).toMatchObject({ code: 'FORBIDDEN' });
    b.realtime.close();
    const anonymous = realtimeFor(null);
    expect(await anonymous.realtime.subscribe('crew', () => undefined).catch((e: unknown) => e)).toMatchObject({
      code: 'UNAUTHORIZED',
    });
    anonymous.realtime.close();
  });

  it('reconnects after a lost connection, joins again and receives what it missed, in order and once', async () => {
    const a = realtimeFor(alice);
    const got: unknown[] = [];
    await a.realtime.subscribe(`user:${alice.id}`, (m) => got.push(m.data));
    const publish = (data: number) =>
      server.app.inject({
        method: 'POST',
        url: '/api/realtime/fieldassist/publish',
        headers: alice.headers,
        payload: { channel: `user:${alice.id}`, type: 'job.changed', data },
      });
    await publish(1);
    await until(() => got.length === 1);
    a.sockets[0]!.terminate(); // the phone lost its signal
    await until(() => a.realtime.state === 'disconnected');
    await publish(2);
    await publish(3);
    await until(() => got.length === 3);
    await publish(4);
    await until(() => got.length === 4);
    expect(got).toEqual([1, 2, 3, 4]);
    expect(a.sockets).toHaveLength(2);
    expect(a.states).toEqual([
      'connecting',
      'connected',
      'subscribed',
      'disconnected',
      'connecting',
      'connected',
      'subscribed',
    ]);
    a.realtime.close();
  });

  it('waits 2^attempt seconds between reconnects, at most 30, plus up to 1 s of jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => reconnectDelay(attempt, () => 0))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(reconnectDelay(0, () => 0.999)).toBe(1999);
  });
});

describe('createClient().realtime', () => {
  it("is the same module, on the client's own token", async () => {
    const { createClient } = await import('../client.js');
    const client = createClient({
      projectId: 'fieldassist',
      baseUrl: server.url,
      auth: { mode: 'headless' },
      getAccessToken: () => alice.accessToken,
      createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    });
    const got: RealtimeMessage[] = [];
    const channel = await client.realtime.subscribe(`user:${alice.id}`, (m) => got.push(m));
    await channel.publish('job.changed', { ids: ['job-1'] });
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ channel: `user:${alice.id}`, data: { ids: ['job-1'] } });
    client.realtime.close();
  });
});
