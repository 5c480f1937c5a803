import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type pg from 'pg';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { callerFromToken, resolveCaller } from './auth/caller.js';
import type { AuthContext } from './auth/context.js';
import { registerHostedPage } from './auth/hosted-page.js';
import { registerOAuthRoutes } from './auth/oauth-routes.js';
import { registerAuthRoutes } from './auth/routes.js';
import { createTokenSigner } from './auth/tokens.js';
import type { ResolvedConfig } from './config.js';
import { registerRawSqlRoutes } from './db/raw-routes.js';
import { registerRestRoutes } from './db/rest/routes.js';
import { loadSchema } from './db/schema.js';
import { registerErrorHandler, errorBody } from './error-handler.js';
import { ApiError, tooManyAttempts } from './errors.js';
import { createMailer } from './notify/mailer.js';
import { registerNotifyRoutes } from './notify/routes.js';
import { authorize, restTables } from './product/policies.js';
import { securityHeaders } from './web/security-headers.js';
import { registerWebApp } from './web/static.js';
import { createAiProvider, createAiRateLimit, type DownloadFile, registerAiRoutes } from './ai/index.js';
import { registerAnalyticsRoutes } from './analytics/routes.js';
import { chunkSections } from './data/chunk-sections.js';
import { createEmbedder } from './product/retrieval/embedder.js';
import { startIndexer } from './product/retrieval/indexer.js';
import { createExtractor } from './data/extract.js';
import { createOcr } from './data/ocr/index.js';
import { registerDataRoutes } from './data/routes.js';
import { registerWebDataRoutes } from './data/web-routes.js';
import { registerChatRoutes } from './product/chat/routes.js';
import { createProductEvents } from './product/events.js';
import { publishRowChanges } from './product/live-updates.js';
import { productFolders } from './product/folders.js';
import { registerInvitationRoutes } from './product/invitations/routes.js';
import { registerManualRoutes } from './product/manuals/routes.js';
import { queueManualsInsertedByRest } from './product/manuals/service.js';
import { startIngestionWorker } from './product/ingestion/worker.js';
import { createFileStore, registerStorageRoutes } from './storage/index.js';
import { startOrphanSweep } from './storage/sweep-orphans.js';
import { serializeRequest } from './ops/request-log.js';
import { registerOpsRoutes } from './ops/routes.js';
import { createRealtimeHub, MANUALS_CHANNEL, registerRealtimeRoutes } from './realtime/index.js';

export interface AppDeps {
  config: ResolvedConfig;
  pool: pg.Pool;
  /** Fetches user-given image and audio URLs from the internet; default: public addresses only. */
  downloadFile?: DownloadFile;
  /** Where the log's JSON lines go; default: standard output. */
  logDestination?: { write(line: string): void };
}

/** Builds the whole server: the platform API and the web app. Tests build it too. */
export async function buildApp({ config, pool, downloadFile, logDestination }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: { req: serializeRequest },
      ...(logDestination && { stream: logDestination }),
    },
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  // The platform client sends `Content-Type: application/json` on every call, also on
  // GET and DELETE without a body: an empty JSON body means no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Form posts only reach the OAuth callback (Apple's response_mode=form_post).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    parseJson(request, body as string, done); // parseAs: 'string' hands over a string
  });

  const headers = securityHeaders({ https: config.publicUrl.startsWith('https:') });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  await app.register(cors, {
    origin: config.appOrigins,
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Prefer', 'x-blink-publishable-key'],
    exposedHeaders: ['Content-Range', 'X-Request-Id'],
    maxAge: 600,
  });

  // One Redis connection (REDIS_URL) for rate-limit counts, realtime commands and readiness.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) : undefined;
  redis?.on('error', (error: Error) => app.log.warn(`redis: ${error.message}`));
  await app.register(rateLimit, {
    global: false,
    // With Redis, every instance counts against the same budget. Should Redis fail, requests pass
    // uncounted rather than fail (readiness reports the outage).
    ...(redis && { redis, nameSpace: `fieldassist:${config.projectId}:rl:`, skipOnError: true }),
    // A refusal is our error like any other (429 RATE_LIMITED with SPEC.md's text).
    errorResponseBuilder: tooManyAttempts,
  });

  const signer = createTokenSigner(config.authSecret, config.projectId);
  // Locally the outbox prints plain text, so a sign-in link can be clicked in the terminal.
  const mailLog =
    config.env === 'production'
      ? (message: string) => app.log.info(message)
      : (message: string) => console.log(message);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, smtpFrom: config.smtpFrom, pool, log: mailLog });
  if (config.env === 'production' && !config.smtpUrl)
    app.log.warn('SMTP_URL is not set: emails (sign-in links included) go to the outbox and the log');
  const rules = { signupMode: config.signupMode, adminEmails: config.adminEmails };
  const auth: AuthContext = { pool, signer, mailer, rules, config };
  const callerDeps = { serviceKey: config.serviceKey, signer, pool, adminEmails: config.adminEmails };

  // Synchronous unless a bearer token has to be looked up: most of a small request's cost is hooks.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const projectId = (request.params as { projectId?: string } | undefined)?.projectId;
    if (projectId !== undefined && projectId !== config.projectId) {
      return done(new ApiError('PROJECT_NOT_FOUND', `Project '${projectId.slice(0, 64)}' not found`));
    }
    if (!request.url.startsWith('/api/')) return done();
    const caller = resolveCaller(request, callerDeps);
    if (!(caller instanceof Promise)) {
      request.caller = caller;
      return done();
    }
    caller.then((resolved) => {
      request.caller = resolved;
      done();
    }, done);
  });

  // During a graceful shutdown the listener is already closed: keep-alive sockets end with
  // the response in flight instead of holding the process open.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!app.server.listening) reply.header('connection', 'close');
    done(null, payload);
  });
  // A response whose headers went out before the shutdown began keeps its socket alive, and
  // Node's close() ends idle sockets only once, at its start: end each one as it falls idle.
  app.addHook('onResponse', (_request, _reply, done) => {
    if (!app.server.listening) setImmediate(() => app.server.closeIdleConnections());
    done();
  });

  registerOpsRoutes(app, {
    pool,
    redis,
    metricsTokens: [config.metricsToken, config.serviceKey].filter((token) => token !== undefined),
  });

  const warn = (message: string) => app.log.warn(message);
  const hub = createRealtimeHub({ redis, projectId: config.projectId });
  const schema = await loadSchema(pool, restTables);
  registerRestRoutes(app, {
    pool,
    schema,
    maxRows: config.restMaxRows,
    authorize,
    afterInsert: queueManualsInsertedByRest,
    onWrite: (change) => publishRowChanges(hub, change, warn),
  });
  registerRawSqlRoutes(app, pool);
  registerAuthRoutes(app, auth);
  registerOAuthRoutes(app, auth);
  registerNotifyRoutes(app, { mailer, pool, config });
  registerAnalyticsRoutes(app, { pool });
  registerInvitationRoutes(app, auth);

  // Files, document text, AI and the product's chat and manual ingestion, each on its configured driver.
  const files = createFileStore({
    dataDir: config.dataDir,
    s3: config.s3,
    publicUrl: config.publicUrl,
    pool,
    log: warn,
    rules: productFolders({ pool, publicUrl: config.publicUrl }),
  });
  // On the disk, files a crash left without their row are removed once per start, in the background.
  // A bucket is not swept (listing all of it at every start is costly): that is left to its operator's lifecycle rules.
  let orphanSweep: ReturnType<typeof startOrphanSweep> | undefined;
  app.addHook('onReady', async () => {
    if (!config.s3) orphanSweep = startOrphanSweep({ pool, root: join(config.dataDir, 'storage'), log: app.log });
  });
  app.addHook('onClose', async () => orphanSweep?.stop());
  // Photos and scanned pages are read in a pool of their own: a long document never holds up a chat photo's OCR.
  const ocr = createOcr({
    concurrency: config.ocrConcurrency,
    timeoutMs: config.ocrTimeoutMs,
    maxMemoryMb: config.extractMaxMemoryMb,
  });
  const extractor = createExtractor(
    {
      concurrency: config.extractConcurrency,
      timeoutMs: config.extractTimeoutMs,
      maxMemoryMb: config.extractMaxMemoryMb,
    },
    ocr,
  );
  const ai = createAiProvider(config, {
    saveGeneratedFile: (bytes, contentType, path) => files.saveServerFile({ path, bytes, contentType }),
    downloadFile,
  });
  const events = createProductEvents();
  registerStorageRoutes(app, files);
  registerDataRoutes(app, { extractor, publicUrl: config.publicUrl, readOwnFile: files.readByPublicUrl });
  registerWebDataRoutes(app, { config, saveFile: files.saveServerFile });
  const aiRateLimit = createAiRateLimit(app, config.aiRateLimitPerMinute);
  registerAiRoutes(app, { provider: ai, rateLimit: aiRateLimit, config });
  // Text embeddings (word vectors) for semantic search, in worker threads: one for questions, EMBED_INDEX_WORKERS for indexing manuals.
  const embedder = config.embeddings
    ? createEmbedder(
        { timeoutMs: config.embedTimeoutMs, maxMemoryMb: 512, indexWorkers: config.embedIndexWorkers },
        warn,
      )
    : undefined;
  registerChatRoutes(app, {
    pool,
    model: ai,
    readOwnFile: files.readByPublicUrl,
    readPhotoText: ocr.readPhoto,
    maxTokens: config.aiMaxOutputTokens,
    rateLimit: aiRateLimit,
    embedder,
  });
  registerManualRoutes(app, { pool, files, extract: extractor.extractDocument, ai, log: warn });
  await registerRealtimeRoutes(app, {
    hub,
    projectId: config.projectId,
    authenticate: async (token) => callerFromToken(token, callerDeps),
  });
  // Every open library view sees a manual's processing status change, and its scanned pages being read, as it happens.
  events.on(
    'manual.status',
    (status) =>
      void hub
        .publish({ channel: MANUALS_CHANNEL, type: 'manual.status', data: status })
        .catch((error: Error) => warn(`realtime: ${error.message}`)),
  );
  events.on(
    'manual.progress',
    (progress) =>
      void hub
        .publish({ channel: MANUALS_CHANNEL, type: 'manual.progress', data: progress })
        .catch((error: Error) => warn(`realtime: ${error.message}`)),
  );
  events.on(
    'manual.indexing',
    (progress) =>
      void hub
        .publish({ channel: MANUALS_CHANNEL, type: 'manual.indexing', data: progress })
        .catch((error: Error) => warn(`realtime: ${error.message}`)),
  );
  const ingestion = startIngestionWorker({
    pool,
    files,
    extract: extractor.extractDocument,
    chunk: chunkSections,
    events,
    log: app.log,
  });
  // Chunks without embeddings (new manuals, and manuals ingested before embeddings) are embedded in the background.
  const indexer =
    embedder && startIndexer({ pool, embedder, events, log: warn }, { concurrency: config.embedIndexWorkers });
  if (indexer) events.on('manual.status', ({ status }) => status === 'ready' && indexer.wake());
  // A manual cut off mid-extraction is picked up again by the next start (its job stays queued).
  app.addHook('onClose', async () => {
    const stopped = Promise.all([ingestion.stop(), indexer?.stop()]);
    await Promise.all([extractor.close(), embedder?.close(), ocr.close()]);
    await stopped;
    await hub.close();
    await redis?.quit().catch(() => undefined);
  });

  const hasWebApp = await registerWebApp(app, config.webDist);
  registerHostedPage(app, config, hasWebApp);
  app.setNotFoundHandler((request, reply) => {
    // The root is always the app (its route also takes the realtime WebSocket); deep links when a page is wanted.
    const isRoot = request.url === '/' || request.url.startsWith('/?');
    const wantsPage =
      request.method === 'GET' &&
      !request.url.startsWith('/api/') &&
      (isRoot || (request.headers.accept ?? '').includes('text/html'));
    if (hasWebApp && wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply
      .status(404)
      .send(errorBody('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
  return app;
}
