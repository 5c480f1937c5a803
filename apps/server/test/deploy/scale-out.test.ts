// Two server instances on loopback sharing one PostgreSQL, one Redis and one S3 server, as
// a load balancer runs them: whichever instance a request reaches, the answer is the same.
// (Ingestion jobs done exactly once by two instances: product/ingestion/ingestion-recovery.test.ts.)
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable } from '../../src/realtime/test-support/redis.js';
import { openSocket } from '../../src/realtime/test-support/socket-client.js';
import { startS3Peer } from '../../src/storage/test-support/s3-peer.js';
import { multipart } from '../../src/storage/test-support/upload-requests.js';
import { buildTestApp } from '../../src/test-support/test-server.js';
import { signUpUser, TEST_PASSWORD, type TestUser } from '../../src/test-support/users.js';

type Instance = { app: FastifyInstance; url: string };
let s3: Awaited<ReturnType<typeof startS3Peer>>;
let one: Instance;
let two: Instance;
let alice: TestUser;

async function listen(app: FastifyInstance): Promise<Instance> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

beforeAll(async () => {
  if (!redisAvailable) return;
  s3 = await startS3Peer();
  const o = s3.options;
  const env = {
    REDIS_URL,
    PUBLIC_URL: 'https://fieldassist.test',
    S3_ENDPOINT: o.endpoint!,
    S3_BUCKET: o.bucket,
    S3_REGION: o.region,
    S3_ACCESS_KEY_ID: o.accessKeyId!,
    S3_SECRET_ACCESS_KEY: o.secretAccessKey!,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const first = await buildTestApp(env);
  const second = await buildTestApp(env, { pool: first.pool });
  [one, two] = await Promise.all([listen(first.app), listen(second.app)]);
  alice = await signUpUser(one.app, { role: 'technician' });
});
afterAll(async () => {
  await two?.app.close();
  await one?.app.close();
  await s3?.close();
});

describe.runIf(redisAvailable)('two instances on one PostgreSQL, Redis and S3', () => {
  it('accept on one the access token the other issued', async () => {
    const me = await fetch(`${two.url}/api/auth/me`, { headers: alice.headers });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { id: alice.id, email: alice.email } });
  });

  it('serve from one a file uploaded through the other', async () => {
    const bytes = Buffer.from(`wiring diagram ${Date.now()}`);
    const { payload, contentType } = multipart([
      { name: 'file', fileName: 'diagram.txt', contentType: 'text/plain', bytes },
      { name: 'path', value: `chat-images/${Date.now()}.txt` },
    ]);
    const upload = await fetch(`${one.url}/api/storage/fieldassist/upload`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': contentType },
      body: payload,
    });
    expect(upload.status).toBe(200);
    const { publicUrl } = (await upload.json()) as { publicUrl: string };
    const download = await fetch(`${two.url}${new URL(publicUrl).pathname}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
  });

  it('deliver to a subscriber of one a message published on the other', async () => {
    const channel = `scale-${Date.now()}`;
    const socket = await openSocket(two.url, { access_token: alice.accessToken });
    socket.send('subscribe', { channel });
    await socket.next(socket.ofType('subscribed'));
    const published = await fetch(`${one.url}/api/realtime/fieldassist/publish`, {
      method: 'POST',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ channel, type: 'note', data: 'from one' }),
    });
    expect(published.status).toBe(200);
    expect((await socket.next(socket.ofType('message'))).payload).toMatchObject({
      channel,
      data: 'from one',
      userId: alice.id,
    });
    socket.close();
  });

  it('count a rate limit across both (sign-in: 10 attempts per address in 5 minutes)', async () => {
    // The counts live in Redis for the window: an address of this run's own.
    const remoteAddress = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
    const attempt = (instance: Instance) =>
      instance.app.inject({
        method: 'POST',
        url: '/api/auth/signin/email',
        remoteAddress,
        payload: { email: alice.email, password: `${TEST_PASSWORD}-wrong` },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt(i % 2 ? two : one)).statusCode);
    expect(statuses.every((status) => status !== 429)).toBe(true);
    const refused = await attempt(one);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect((await attempt(two)).statusCode).toBe(429);
  });
});
