import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveCaller } from '../auth/caller.js';
import { createTokenSigner } from '../auth/tokens.js';
import { registerErrorHandler } from '../error-handler.js';
import { TEST_AUTH_SECRET, TEST_SERVICE_KEY, buildTestApp } from '../test-support/test-server.js';
import { signUpUser, type TestUser } from '../test-support/users.js';
import { isPublicAddress } from './address-policy.js';
import { createExtractor } from './extract.js';
import type { OwnFile } from './extract-service.js';
import { makeDocx, makeManualPdf, manualPageLines, tinyPng } from './fixtures/make-documents.js';
import { registerDataRoutes } from './routes.js';

// The data routes on the platform's own pieces (error handler, zod, caller resolution on the
// test database), with their dependencies injected: a stored-files reader and a fetch policy
// that lets the server reach one local port as if it were a public web server.
const publicUrl = 'https://files.fieldassist.test';
const ownFiles = new Map<string, OwnFile>();
const extractor = createExtractor({ concurrency: 2 });
let app: FastifyInstance;
let main: FastifyInstance;
let projectId: string;
let user: TestUser;
let web: Server;
let webPort = 0;
let pdf: Buffer;

const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };

beforeAll(async () => {
  const built = await buildTestApp();
  main = built.app;
  projectId = built.projectId;
  user = await signUpUser(main, { role: 'technician', projectId });
  pdf = await makeManualPdf(3);

  web = createServer((req, res) => {
    if (req.url === '/manual.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webPort = (web.address() as AddressInfo).port;

  app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  const callerDeps = {
    serviceKey: TEST_SERVICE_KEY,
    signer: createTokenSigner(TEST_AUTH_SECRET, projectId),
    pool: built.pool,
    adminEmails: [],
  };
  app.addHook('onRequest', async (request) => {
    request.caller = await resolveCaller(request, callerDeps);
  });
  registerDataRoutes(app, {
    extractor,
    publicUrl,
    readOwnFile: async (url) => ownFiles.get(url),
    fetchOptions: {
      isAllowedAddress: ({ address, port }) =>
        (address === '127.0.0.1' && port === webPort) || isPublicAddress(address),
    },
    maxUploadBytes: 64 * 1024,
  });
  await app.ready();
});

afterAll(async () => {
  await Promise.all([app?.close(), main?.close(), extractor.close(), new Promise((r) => web?.close(r))]);
});

/** A multipart body exactly as a browser's FormData sends it. */
async function multipartOf(fields: Record<string, string | { bytes: Buffer; name: string; type?: string }>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(key, value);
    else
      form.append(
        key,
        new Blob([new Uint8Array(value.bytes)], { type: value.type ?? 'application/octet-stream' }),
        value.name,
      );
  }
  const request = new Request('http://x', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

const pdfText = [1, 2, 3].map((n) => manualPageLines(n).join('\n')).join('\n\n');
const blobUrl = () => `/api/data/${projectId}/extract-from-blob`;
const urlUrl = () => `/api/data/${projectId}/extract-from-url`;

describe('POST /api/data/:projectId/extract-from-blob', () => {
  it('extracts an uploaded PDF for a signed-in user', async () => {
    const body = await multipartOf({
      file: { bytes: pdf, name: 'manual.pdf', type: 'application/pdf' },
      chunking: 'false',
    });
    const res = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...user.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ text: pdfText });
  });

  it('answers chunks when asked, fields before or after the file', async () => {
    const body = await multipartOf({ chunking: 'true', chunkSize: '100', file: { bytes: pdf, name: 'manual.pdf' } });
    const res = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...service, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    const { chunks } = res.json() as { chunks: string[] };
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((chunk) => chunk.length <= 100)).toBe(true);
    expect(chunks[0]).toBe(manualPageLines(1).slice(0, 2).join('\n'));
  });

  it('answers the 2.9.0 SDK’s JSON `{}` with a clear 400', async () => {
    const res = await app.inject({ method: 'POST', url: blobUrl(), headers: user.headers, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'extract-from-blob needs a multipart/form-data body with a file field',
      message: 'extract-from-blob needs a multipart/form-data body with a file field',
      code: 'VALIDATION_ERROR',
    });
  });

  it('refuses a form without a file, and a bad chunkSize, naming the field', async () => {
    const noFile = await multipartOf({ chunking: 'true' });
    const res = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...service, ...noFile.headers },
      payload: noFile.payload,
    });
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'extract-from-blob needs a multipart/form-data body with a file field',
    });
    const badSize = await multipartOf({ file: { bytes: pdf, name: 'a.pdf' }, chunkSize: 'lots' });
    const res2 = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...service, ...badSize.headers },
      payload: badSize.payload,
    });
    expect(res2.statusCode).toBe(400);
    expect(res2.json().message).toMatch(/^body\.chunkSize: /);
  });

  it('refuses a PNG named .pdf (400), an empty file (422) and a file over the limit (413)', async () => {
    const png = await multipartOf({ file: { bytes: tinyPng, name: 'manual.pdf', type: 'application/pdf' } });
    const res = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...service, ...png.headers },
      payload: png.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
      message: expect.stringMatching(/^Unsupported file type: image\/png/),
    });

    const empty = await multipartOf({ file: { bytes: Buffer.alloc(0), name: 'manual.pdf' } });
    const res2 = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...service, ...empty.headers },
      payload: empty.payload,
    });
    expect(res2.statusCode).toBe(422);
    expect(res2.json()).toMatchObject({ code: 'EMPTY_DOCUMENT', message: 'PDF content is empty' });

    const big = await multipartOf({ file: { bytes: Buffer.alloc(65 * 1024, 'a'), name: 'big.txt' } });
    const res3 = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...service, ...big.headers },
      payload: big.payload,
    });
    expect(res3.statusCode).toBe(413);
    expect(res3.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File size exceeds maximum allowed size (64KB)',
    });
  });

  it('refuses callers who are not signed in, before reading the body', async () => {
    const body = await multipartOf({ file: { bytes: pdf, name: 'manual.pdf' } });
    const anonymous = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: body.headers,
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const forged = await app.inject({
      method: 'POST',
      url: blobUrl(),
      headers: { ...body.headers, authorization: 'Bearer not-a-token' },
      payload: body.payload,
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe('POST /api/data/:projectId/extract-from-url', () => {
  it('reads this server’s own stored files from storage', async () => {
    const url = `${publicUrl}/files/abc123/notes.docx`;
    ownFiles.set(url, {
      bytes: await makeDocx(['Check the belt.', 'Then the fan.']),
      fileName: 'notes.docx',
      contentType: 'application/octet-stream',
    });
    const res = await app.inject({
      method: 'POST',
      url: urlUrl(),
      headers: user.headers,
      payload: { url, chunking: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ text: 'Check the belt.\n\nThen the fan.' });
  });

  it('answers 404 for an own file that does not exist', async () => {
    const res = await app.inject({
      method: 'POST',
      url: urlUrl(),
      headers: user.headers,
      payload: { url: `${publicUrl}/files/nope.pdf` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'File not found' });
  });

  it('downloads other URLs, whole or in chunks', async () => {
    const url = `http://127.0.0.1:${webPort}/manual.pdf`;
    const whole = await app.inject({ method: 'POST', url: urlUrl(), headers: user.headers, payload: { url } });
    expect(whole.json()).toEqual({ text: pdfText });
    const chunked = await app.inject({
      method: 'POST',
      url: urlUrl(),
      headers: user.headers,
      payload: { url, chunking: true, chunkSize: 2000 },
    });
    expect(chunked.json()).toEqual({ chunks: [1, 2, 3].map((n) => manualPageLines(n).join('\n')) });
  });

  it('refuses private addresses with 400 URL_NOT_ALLOWED', async () => {
    for (const url of [
      `http://127.0.0.1:${webPort + 1}/`,
      'http://169.254.169.254/latest/meta-data',
      'http://localhost/',
    ]) {
      const res = await app.inject({ method: 'POST', url: urlUrl(), headers: user.headers, payload: { url } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'This address is not allowed',
        message: 'This address is not allowed',
        code: 'URL_NOT_ALLOWED',
      });
    }
  });

  it('validates the body and needs a signed-in caller', async () => {
    const missing = await app.inject({
      method: 'POST',
      url: urlUrl(),
      headers: user.headers,
      payload: { chunking: true },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/^body\.url: /);
    const anonymous = await app.inject({ method: 'POST', url: urlUrl(), payload: { url: 'http://example.com/a.pdf' } });
    expect(anonymous.statusCode).toBe(401);
  });
});
