import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { resolveCaller } from '../../auth/caller.js';
import { createTokenSigner } from '../../auth/tokens.js';
import { loadConfig } from '../../config.js';
import { registerErrorHandler } from '../../error-handler.js';
import { createFileStore, type FileStore } from '../../storage/index.js';
import { TEST_AUTH_SECRET, TEST_SERVICE_KEY, buildTestApp } from '../../test-support/test-server.js';
import { signUpUser, type TestUser } from '../../test-support/users.js';
import { isPublicAddress } from '../address-policy.js';
import { registerWebDataRoutes } from '../web-routes.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A real HTTP server on an ephemeral loopback port that counts requests and connections. */
export async function startServer(handler: Handler) {
  const stats = { requests: 0, connections: 0 };
  const server: Server = createServer((req, res) => {
    stats.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handler(req, res, Buffer.concat(chunks)));
  });
  server.on('connection', () => stats.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };
  return { port, url: (path = '/') => `http://127.0.0.1:${port}${path}`, stats, close };
}
export type TestHttpServer = Awaited<ReturnType<typeof startServer>>;

/** The server that must never be reached: anything it sees is a leak. */
export const startForbiddenServer = () => startServer((_req, res) => res.end('secret'));

/**
 * The web data routes on the platform's own pieces (error handler, zod, rate limit, caller
 * resolution and a file store on the test database), with an address policy that lets the
 * server reach one loopback port as if it were a public web site; every other private address
 * stays refused.
 */
export async function startWebDataApp(options: { allowedPort: number; env?: Record<string, string> }) {
  const main = await buildTestApp();
  const user: TestUser = await signUpUser(main.app, { role: 'technician', projectId: main.projectId });
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-web-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATA_RATE_LIMIT_PER_MINUTE: '1000',
    ...options.env,
  });
  const files: FileStore = createFileStore({
    dataDir,
    publicUrl: 'http://files.test',
    pool: main.pool,
    log: () => undefined,
  });

  const app: FastifyInstance = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await app.register(rateLimit, { global: false });
  const callerDeps = {
    serviceKey: TEST_SERVICE_KEY,
    signer: createTokenSigner(TEST_AUTH_SECRET, main.projectId),
    pool: main.pool,
    adminEmails: [],
  };
  app.addHook('onRequest', async (request) => {
    request.caller = await resolveCaller(request, callerDeps);
  });
  registerWebDataRoutes(app, {
    config,
    saveFile: files.saveServerFile,
    fetchOptions: {
      isAllowedAddress: ({ address, port }) =>
        (address === '127.0.0.1' && port === options.allowedPort) || isPublicAddress(address),
    },
  });
  await app.ready();
  const close = async () => {
    await Promise.all([app.close(), main.app.close()]);
    await rm(dataDir, { recursive: true, force: true });
  };
  return { app, main: main.app, projectId: main.projectId, user, files, close };
}
