// `client.data.extractFromUrl` against the real server: a stored file's text, whole or in
// passages, and how refusals reach the app as the SDK's error classes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../../apps/server/src/data/fixtures/make-documents.js';
import { startTestServer } from '../../../../apps/server/src/test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../../apps/server/src/test-support/users.js';
import { createClient, FieldAssistAuthError, FieldAssistDataError, FieldAssistValidationError } from '../index.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let tech: TestUser;
const sent: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await signUpUser(server.app); // the first account is the admin
  tech = await signUpUser(server.app, { role: 'technician' });
});
afterAll(() => server.close());

const clientOf = (user: TestUser | null) =>
  createClient({
    projectId: server.projectId,
    baseUrl: server.url,
    getAccessToken: () => user?.accessToken,
    auth: { mode: 'headless' },
    fetch: (input, init) => (sent.push(new URL(input).pathname), fetch(input, init)),
  });

async function failure<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

const stamp = () => `${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;

describe('client.data.extractFromUrl', () => {
  it('answers the text of a stored PDF, and its passages with chunking', async () => {
    const client = clientOf(tech);
    const pdf = await makePdf([['Pump P-20 service manual', 'Part No. PN-2044'], ['Page two: replace the seal.']]);
    const { publicUrl } = await client.storage.upload(new Uint8Array(pdf), `manuals/${stamp()}.pdf`);
    const text = await client.data.extractFromUrl(publicUrl);
    expect(text).toContain('Pump P-20 service manual');
    expect(text).toContain('Page two: replace the seal.');
    const chunks = await client.data.extractFromUrl(publicUrl, { chunking: true, chunkSize: 200 });
    expect(chunks.length).toBe(2);
    expect(chunks[1]).toContain('replace the seal');
    expect(sent.at(-1)).toBe(`/api/data/${server.projectId}/extract-from-url`);
  });

  it('an unreadable file is FieldAssistDataError with the server code; a missing stored file NOT_FOUND', async () => {
    const client = clientOf(tech);
    const { publicUrl } = await client.storage.upload(
      new Uint8Array(Buffer.from('%PDF-1.7 broken')),
      `manuals/${stamp()}.pdf`,
    );
    const unreadable = await failure(client.data.extractFromUrl(publicUrl), FieldAssistDataError);
    expect(unreadable.status).toBeGreaterThanOrEqual(400);
    expect(unreadable.code).toMatch(/UNREADABLE_DOCUMENT|EMPTY_DOCUMENT/);
    const missing = await failure(
      client.data.extractFromUrl(`${new URL(publicUrl).origin}/files/nope/none.pdf`),
      FieldAssistDataError,
    );
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'File not found' });
  });

  it('checks its arguments before sending; signed out is an auth error; a bad chunk size a validation error', async () => {
    sent.length = 0;
    expect((await failure(clientOf(tech).data.extractFromUrl(' '), FieldAssistValidationError)).message).toBe(
      'URL is required',
    );
    expect(sent).toEqual([]);
    expect(
      (await failure(clientOf(null).data.extractFromUrl(`${server.url}/files/x.pdf`), FieldAssistAuthError)).status,
    ).toBe(401);
    const bad = await failure(
      clientOf(tech).data.extractFromUrl(`${server.url}/files/x.pdf`, { chunking: true, chunkSize: 5 }),
      FieldAssistValidationError,
    );
    expect(bad.message).toMatch(/^body\.chunkSize/);
  });
});
