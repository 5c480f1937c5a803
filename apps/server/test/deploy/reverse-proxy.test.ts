// The real deploy/Caddyfile, run by the machine's caddy, in front of real instances on loopback,
// as deploy/compose.yaml runs it: TLS from Caddy's local CA, round robin over the instances,
// WebSocket upgrades, /metrics hidden, no traffic to an instance that is not ready or stopped,
// and client addresses passed on in X-Forwarded-For for TRUST_PROXY. Only the environment
// differs from compose: SITE_ADDRESS, UPSTREAMS and CADDY_GLOBAL_OPTIONS (loopback only, no
// admin API, no trust-store install, no port-80 redirect server).
// Caddy is Debian's package: `node scripts/ensure-test-packages.mjs caddy` installs it (npm run test:unit does).
import { type ChildProcess, spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { REDIS_URL, redisAvailable } from '../../src/realtime/test-support/redis.js';
import { buildTestApp, TEST_SERVICE_KEY } from '../../src/test-support/test-server.js';
import { signUpUser, TEST_PASSWORD, type TestUser } from '../../src/test-support/users.js';

const CADDYFILE = fileURLToPath(new URL('../../../../deploy/Caddyfile', import.meta.url));

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The caddy on PATH. Missing: the file fails in CI (CI set), and is left out with a warning elsewhere. */
const CADDY = (process.env.PATH ?? '')
  .split(delimiter)
  .filter(Boolean)
  .map((dir) => join(dir, 'caddy'))
  .find(isExecutable);
if (!CADDY) {
  const why = 'No caddy on PATH (as root: node scripts/ensure-test-packages.mjs caddy, which npm run test:unit runs)';
  if (process.env.CI && process.env.CI !== 'false') throw new Error(`${why}: CI must run the reverse-proxy test`);
  console.warn(`${why}: the reverse-proxy test of deploy/Caddyfile is left out.`);
}

type Instance = { app: FastifyInstance; url: string; closed?: boolean };
let one: Instance;
let two: Instance;
/** An instance whose Redis does not answer: GET /readyz is 503, so Caddy must send it nothing. */
let notReady: Instance;
let alice: TestUser;
let caddy: ChildProcess | undefined;
let caddyLog = '';
let caddyHome = '';
let proxyPort = 0;
let rootCa = '';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function listen(app: FastifyInstance): Promise<Instance> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** A loopback address of its own (all of 127/8 is the loopback interface): a client Caddy sees apart from the others. */
const clientAddress = () => `127.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  authorized: boolean;
  certificate: DetailedPeerCertificate;
}

/** One HTTPS request to Caddy on a fresh connection, trusting Caddy's local root (only) by default. */
function viaCaddy(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; json?: unknown; from?: string; ca?: string } = {},
): Promise<Answer> {
  const { method = 'GET', headers = {}, json, from, ca = rootCa } = opts;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        hostname: 'localhost',
        family: 4,
        port: proxyPort,
        path,
        method,
        agent: false,
        localAddress: from,
        ca: ca || undefined,
        headers: { ...headers, ...(json !== undefined && { 'content-type': 'application/json' }) },
      },
      (res) => {
        const socket = res.socket as TLSSocket;
        const certificate = socket.getPeerCertificate(true);
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            authorized: socket.authorized,
            certificate,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path} through Caddy: no answer within 15 s`)));
    req.end(json === undefined ? undefined : JSON.stringify(json));
  });
}

/** How many requests an instance has answered, by route and status, from its own GET /metrics. */
async function answered(instance: Instance, route: string, status: number, method = 'GET'): Promise<number> {
  const res = await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${TEST_SERVICE_KEY}` } });
  expect(res.status).toBe(200);
  const want = { method, route, status: String(status) };
  for (const line of (await res.text()).split('\n')) {
    const match = /^http_requests_total\{(.*)\} (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries(
      [...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => [name, value]),
    );
    if (Object.entries(want).every(([name, value]) => labels[name] === value)) return Number(match[2]);
  }
  return 0;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (caddy?.exitCode != null)
      throw new Error(`caddy exited (${caddy.exitCode}) while waiting for ${what}:\n${caddyLog}`);
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms. Caddy's log:\n${caddyLog}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startCaddy(upstreams: Instance[]) {
  caddyHome = await mkdtemp(join(tmpdir(), 'fieldassist-caddy-'));
  proxyPort = await freePort();
  // Only what Caddy needs: its storage (CA, certificates) and config autosave under the temp folder, never root's home.
  caddy = spawn(CADDY!, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH,
      HOME: caddyHome,
      XDG_DATA_HOME: join(caddyHome, 'data'),
      XDG_CONFIG_HOME: join(caddyHome, 'config'),
      SITE_ADDRESS: `localhost:${proxyPort}`,
      UPSTREAMS: upstreams.map((instance) => new URL(instance.url).host).join(' '),
      CADDY_GLOBAL_OPTIONS: [
        'admin off',
        'skip_install_trust',
        'default_bind 127.0.0.1',
        'auto_https disable_redirects',
      ].join('\n'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  caddy.stderr!.on('data', (chunk: Buffer) => (caddyLog = (caddyLog + chunk.toString()).slice(-20_000)));
  const rootPath = join(caddyHome, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  rootCa = await until("Caddy's local root certificate", () => readFile(rootPath, 'utf8'));
  await until('GET /healthz through Caddy', async () =>
    (await viaCaddy('/healthz')).status === 200 ? true : undefined,
  );
}

async function stopCaddy() {
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((resolve) => caddy!.once('exit', resolve));
    caddy.kill('SIGTERM');
    const timer = setTimeout(() => caddy!.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  if (caddyHome) await rm(caddyHome, { recursive: true, force: true });
}

beforeAll(async () => {
  if (!CADDY) return;
  // Like compose: one database, Redis (where there is one), the shared secrets, and TRUST_PROXY naming
  // the proxy's network (there uniquelocal, here loopback).
  const base = { PUBLIC_URL: 'https://localhost', TRUST_PROXY: 'loopback' };
  const env = redisAvailable ? { ...base, REDIS_URL } : base;
  const first = await buildTestApp(env);
  const second = await buildTestApp(env, { pool: first.pool });
  const third = await buildTestApp(
    { ...base, REDIS_URL: `redis://127.0.0.1:${await freePort()}/0` },
    { pool: first.pool },
  );
  [one, two, notReady] = await Promise.all([listen(first.app), listen(second.app), listen(third.app)]);
  alice = await signUpUser(one.app, { role: 'technician' });
  await startCaddy([one, two, notReady]);
  // Caddy checks every upstream's /readyz as it starts; wait until it has heard the not-ready one's 503.
  // (Counted as the 503 is sent; Caddy marks the upstream down once it has read it: a moment later.)
  await until("Caddy's health check of the instance that is not ready", async () =>
    (await answered(notReady, '/readyz', 503)) > 0 ? true : undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
});

afterAll(async () => {
  await stopCaddy();
  for (const instance of [notReady, two, one]) if (instance && !instance.closed) await instance.app.close();
});

describe.runIf(CADDY)('deploy/Caddyfile in front of the instances', () => {
  it('terminates TLS with a certificate from its local CA', async () => {
    const res = await viaCaddy('/healthz');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    expect(res.authorized).toBe(true);
    expect(res.certificate.subjectaltname).toContain('DNS:localhost');
    // The chain ends at the root Caddy generated into its data folder (leaf, intermediate, root).
    let top = res.certificate;
    while (top.issuerCertificate && top.issuerCertificate !== top) top = top.issuerCertificate;
    expect(top.fingerprint256).toBe(new X509Certificate(rootCa).fingerprint256);
    expect(top.subject.CN).toMatch(/^Caddy Local Authority/);
    // Not a certificate anyone trusts by default: without that root the handshake fails.
    await expect(viaCaddy('/healthz', { ca: '' })).rejects.toThrow(/certificate/i);
  });

  it('spreads requests over both ready instances in turn, none to the one that is not ready', async () => {
    const before = await Promise.all([one, two, notReady].map((instance) => answered(instance, '/healthz', 200)));
    for (let i = 0; i < 10; i++) expect((await viaCaddy('/healthz')).status).toBe(200);
    const after = await Promise.all([one, two, notReady].map((instance) => answered(instance, '/healthz', 200)));
    expect(after.map((count, i) => count - before[i]!)).toEqual([5, 5, 0]);
    // Caddy did ask it (GET /readyz) and heard 503.
    expect(await answered(notReady, '/readyz', 503)).toBeGreaterThan(0);
  });

  it('signs in, and the token works on both instances', async () => {
    const signIn = await viaCaddy('/api/auth/signin/email', {
      method: 'POST',
      from: clientAddress(),
      json: { email: alice.email, password: TEST_PASSWORD },
    });
    expect(signIn.status).toBe(200);
    const token = (JSON.parse(signIn.body) as { access_token: string }).access_token;
    expect(token).toEqual(expect.any(String));
    const authorization = `Bearer ${token}`;
    for (const instance of [one, two]) {
      const me = await fetch(`${instance.url}/api/auth/me`, { headers: { authorization } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ user: { id: alice.id, email: alice.email } });
    }
    // And through Caddy, twice: once on each instance.
    for (let i = 0; i < 2; i++)
      expect((await viaCaddy('/api/auth/me', { headers: { authorization } })).status).toBe(200);
  });

  it('upgrades the realtime WebSocket (wss://)', async () => {
    const channel = `proxy-${Date.now()}`;
    const url = `wss://localhost:${proxyPort}/?${new URLSearchParams({ project_id: 'fieldassist', access_token: alice.accessToken })}`;
    const socket = new WebSocket(url, { ca: rootCa, family: 4 });
    const frames: { type: string; payload: Record<string, unknown> }[] = [];
    socket.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
    await new Promise<void>((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const frame = (type: string) =>
      until(`a ${type} frame`, async () => frames.find((f) => f.type === type && f.payload.channel === channel), 5000);
    try {
      socket.send(JSON.stringify({ type: 'subscribe', payload: { channel } }));
      await frame('subscribed');
      // Published through Caddy, so by either instance: with Redis every instance delivers it.
      if (redisAvailable) {
        const published = await viaCaddy('/api/realtime/fieldassist/publish', {
          method: 'POST',
          headers: alice.headers,
          json: { channel, type: 'note', data: 'through caddy' },
        });
        expect(published.status).toBe(200);
        expect((await frame('message')).payload).toMatchObject({ channel, data: 'through caddy', userId: alice.id });
      }
    } finally {
      socket.close();
    }
  });

  it('hides /metrics, whatever the token', async () => {
    const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };
    for (const path of [
      '/metrics',
      '/metrics?name[]=http_requests_total',
      '/METRICS',
      '/%6detrics',
      '//metrics',
      '/./metrics',
      '/x/../metrics',
    ]) {
      const res = await viaCaddy(path, { headers: service });
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('http_requests_total');
    }
    // The instances still answer it on the internal network.
    expect(await answered(one, '/metrics', 200)).toBeGreaterThan(0);
  });

  // The counts live in Redis for 5 minutes: addresses and an email of this run's own.
  it.runIf(redisAvailable)(
    'passes the client address on (X-Forwarded-For), and ignores one the client made up',
    async () => {
      const wrong = { email: alice.email, password: `${TEST_PASSWORD}-wrong` };
      const guesser = clientAddress();
      // Each attempt claims another address of its own; Caddy replaces the claim with the real one.
      const attempt = (from: string) =>
        viaCaddy('/api/auth/signin/email', {
          method: 'POST',
          from,
          json: wrong,
          headers: { 'x-forwarded-for': clientAddress().replace(/^127/, '10') },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await attempt(guesser)).status);
      expect(statuses.every((status) => status !== 429)).toBe(true);
      const refused = await attempt(guesser);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body).code).toBe('RATE_LIMITED');
      // Another client of the same proxy is not refused: each is counted under its own address, not Caddy's.
      expect((await attempt(clientAddress())).status).toBe(401);
    },
  );

  // Last: it stops one instance.
  it('keeps answering when an instance stops (the next instance is tried)', async () => {
    await two.app.close();
    two.closed = true;
    const before = await answered(one, '/healthz', 200);
    for (let i = 0; i < 6; i++) expect((await viaCaddy('/healthz')).status).toBe(200);
    expect(await answered(one, '/healthz', 200)).toBe(before + 6);
    expect(await answered(notReady, '/healthz', 200)).toBe(0);
  });
});
