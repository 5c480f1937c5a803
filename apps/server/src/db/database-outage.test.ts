import { createServer, type Server, type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from './pool.js';
import { createTestDatabase } from '../test-support/test-database.js';
import { buildTestApp } from '../test-support/test-server.js';
import { signUpUser, type TestUser } from '../test-support/users.js';

/**
 * A TCP relay between the server and PostgreSQL that can drop every connection and refuse new
 * ones, then come back on the same port: to the server, a database restart.
 */
async function startRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s)).on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    url: () => Object.assign(new URL(target), { host: `127.0.0.1:${port}` }).toString(),
    async down() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        sockets.forEach((s) => s.destroy());
      });
    },
    up: listen,
  };
}

let relay: Awaited<ReturnType<typeof startRelay>>;
let app: Awaited<ReturnType<typeof buildTestApp>>['app'];
let user: TestUser;

beforeAll(async () => {
  const { url } = await createTestDatabase();
  relay = await startRelay(new URL(url));
  const pool = createPool(relay.url(), 5);
  ({ app } = await buildTestApp({ DATABASE_URL: relay.url() }, { pool }));
  user = await signUpUser(app, { role: 'technician' });
  afterAll(async () => {
    await app.close();
    await pool.end();
  });
});

const listJobs = () =>
  app.inject({ method: 'GET', url: '/api/db/fieldassist/rest/v1/jobs?limit=5', headers: user.headers });

describe('a PostgreSQL restart under load', () => {
  it('fails requests cleanly with 503 while the database is gone, and recovers without a restart', async () => {
    expect((await listJobs()).statusCode).toBe(200);
    await relay.down();
    const during = await Promise.all(Array.from({ length: 30 }, listJobs));
    for (const res of during) {
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        error: 'The database is unavailable; try again shortly',
        message: 'The database is unavailable; try again shortly',
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    await relay.up();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await listJobs()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    // And it keeps working: every request of a burst succeeds.
    expect((await Promise.all(Array.from({ length: 20 }, listJobs))).map((r) => r.statusCode)).toEqual(
      Array(20).fill(200),
    );
  });
});
