// `client.storage` against the real server: upload (fetch and XMLHttpRequest transports),
// download link, remove, and how refusals reach the app as the SDK's error classes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from '../../../../apps/server/src/storage/test-support/fixtures.js';
import { startTestServer } from '../../../../apps/server/src/test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../../apps/server/src/test-support/users.js';
import {
  createClient,
  FieldAssistAuthError,
  FieldAssistError,
  FieldAssistStorageError,
  FieldAssistValidationError,
} from '../index.js';
import { FakeXhr } from './fake-xhr.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  await signUpUser(server.app); // the first account becomes admin; alice and bob are not
  [alice, bob] = await Promise.all([
    signUpUser(server.app, { role: 'technician' }),
    signUpUser(server.app, { role: 'technician' }),
  ]);
});
afterAll(() => server.close());

const storageOf = (user: TestUser | null) =>
  createClient({
    projectId: server.projectId,
    baseUrl: server.url,
    getAccessToken: () => user?.accessToken,
    auth: { mode: 'headless' },
  }).storage;

/** The bytes behind a public URL, fetched from the test server's own port. */
async function bytesAt(publicUrl: string): Promise<Buffer> {
  const res = await fetch(`${server.url}${new URL(publicUrl).pathname}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function failure<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

const stamp = () => `${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;

describe('client.storage.upload', () => {
  it('stores a Blob, corrects the extension and answers a public URL that serves the bytes', async () => {
    const result = await storageOf(alice).upload(new Blob([PNG]), `avatars/${stamp()}.jpg`);
    expect(result.path).toMatch(/^avatars\/.+\.png$/);
    expect((await bytesAt(result.publicUrl)).equals(PNG)).toBe(true);
  });

  it('answers 409 CONFLICT for an existing path, and replaces it with upsert: true', async () => {
    const path = `chat-images/${stamp()}.png`;
    const storage = storageOf(alice);
    await storage.upload(new File([PNG], 'photo.png', { type: 'image/png' }), path);
    const error = await failure(storage.upload(new Blob([PNG]), path), FieldAssistStorageError);
    expect(error).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'File already exists. Set upsert: true to overwrite.',
    });
    const replaced = await storage.upload(new Uint8Array(PNG), path, { upsert: true });
    expect(replaced.path).toBe(path);
  });

  it('reports progress through XMLHttpRequest when onProgress is given', async () => {
    FakeXhr.install();
    try {
      const seen: number[] = [];
      const result = await storageOf(alice).upload(new Blob([PNG]), `chat-images/${stamp()}.png`, {
        onProgress: (p) => seen.push(p),
      });
      expect(FakeXhr.sent).toBe(1);
      expect(seen.at(-1)).toBe(100);
      expect((await bytesAt(result.publicUrl)).equals(PNG)).toBe(true);
      const error = await failure(
        storageOf(alice).upload(new Blob([PNG]), result.path, { onProgress: () => undefined }),
        FieldAssistStorageError,
      );
      expect(error).toMatchObject({ status: 409, code: 'CONFLICT' });
    } finally {
      FakeXhr.uninstall();
    }
  });

  it('refuses before sending: empty path, unsupported value, over 50MB', async () => {
    const storage = storageOf(alice);
    expect((await failure(storage.upload(new Blob([PNG]), '  '), FieldAssistValidationError)).message).toBe(
      'File path is required',
    );
    expect((await failure(storage.upload('text' as never, 'avatars/a.png'), FieldAssistValidationError)).message).toBe(
      'Unsupported file type',
    );
    const big = new Blob([new Uint8Array(50 * 1024 * 1024 + 1)]);
    const error = await failure(storage.upload(big, 'avatars/big.png'), FieldAssistValidationError);
    expect(error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 0,
      message: 'File size (50.00 MB) exceeds maximum allowed size (50MB)',
    });
  });

  it('a folder the caller may not write is FORBIDDEN; signed out is an auth error', async () => {
    const forbidden = await failure(storageOf(alice).upload(new Blob([PNG]), 'secrets/x.png'), FieldAssistStorageError);
    expect(forbidden).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'You do not have permission to upload to this folder',
    });
    const signedOut = await failure(storageOf(null).upload(new Blob([PNG]), 'avatars/x.png'), FieldAssistAuthError);
    expect(signedOut.status).toBe(401);
  });
});

describe('client.storage.download and remove', () => {
  it('download answers the link and name; another user is told the file does not exist', async () => {
    const { path } = await storageOf(alice).upload(new Blob([PNG]), `avatars/${stamp()}.png`);
    const link = await storageOf(alice).download(path, { filename: 'me.png' });
    expect(link).toMatchObject({ filename: 'me.png', contentType: 'image/png', size: PNG.length });
    expect(link.downloadUrl).toContain('download=1');
    const hidden = await failure(storageOf(bob).download(path), FieldAssistStorageError);
    expect(hidden).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'File not found' });
  });

  it('remove deletes the caller’s files, refuses another user’s, and checks its arguments', async () => {
    const { path } = await storageOf(alice).upload(new Blob([PNG]), `avatars/${stamp()}.png`);
    expect(await failure(storageOf(bob).remove(path), FieldAssistError)).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await storageOf(alice).remove(path, 'avatars/never-there.png')).toEqual({ removed: [path] });
    await failure(storageOf(alice).download(path), FieldAssistStorageError);
    expect((await failure(storageOf(alice).remove(), FieldAssistValidationError)).message).toBe(
      'At least one file path is required',
    );
    expect((await failure(storageOf(alice).download(''), FieldAssistValidationError)).message).toBe(
      'File path is required',
    );
  });
});
