import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Driver } from './test-support/storage-app.js';
import { fileAt, useStorageApp } from './test-support/storage-calls.js';
import {
  eventually,
  fetchUploadFromAnotherProcess,
  MB,
  multipartAround,
  openUpload,
} from './test-support/upload-requests.js';

// Refused and broken uploads leave nothing behind, on either driver.
describe.each<Driver>(['disk', 's3'])('upload limits on the %s driver', (driver) => {
  const t = useStorageApp(driver);
  const uploadUrl = () => `${t.url}/api/storage/${t.projectId}/upload`;
  const rowsAt = async (path: string) =>
    (await t.pool.query('SELECT 1 FROM storage_objects WHERE path = $1', [path])).rowCount;

  it("refuses a 51 MB file with SPEC.md's message and stores nothing", async () => {
    const before = await t.storedFiles();
    const res = await t.upload(t.cast.alice, fileAt('chat-images/huge.bin', Buffer.alloc(51 * MB, 1)));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      error: 'File size (51.00 MB) exceeds maximum allowed size (50MB)',
      message: 'File size (51.00 MB) exceeds maximum allowed size (50MB)',
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(await rowsAt('chat-images/huge.bin')).toBe(0);
    expect(await t.storedFiles()).toEqual(before);
  });

  it('accepts a file of exactly 50 MB, streamed through (multipart upload on S3)', async () => {
    const bytes = Buffer.alloc(50 * MB, 5);
    bytes.write('the end', bytes.length - 7);
    const res = await t.upload(t.cast.alice, fileAt('chat-images/limit.raw', bytes));
    expect(res.statusCode).toBe(200);
    const tail = await t.fetchFile(res.json().publicUrl, { range: 'bytes=-7' });
    expect(tail.statusCode).toBe(206);
    expect(tail.body).toBe('the end');
    expect((await t.download(t.cast.alice, 'path=chat-images/limit.raw')).json().size).toBe(50 * MB);
    expect((await t.remove(t.cast.alice, { paths: ['chat-images/limit.raw'] })).statusCode).toBe(200);
  });

  it('stops a body of unknown length at 50 MB and removes what was written', async () => {
    const before = await t.storedFiles();
    const { before: head, contentType } = multipartAround('chat-images/endless.bin', 'endless.bin');
    const upload = openUpload(uploadUrl(), {
      ...t.cast.alice.headers,
      'content-type': contentType,
      'transfer-encoding': 'chunked',
    });
    await upload.write(head);
    // Past the limit the server stores nothing more; it reads on (and drops) what the client still sends, so the client hears why.
    const chunk = Buffer.alloc(256 * 1024, 7);
    for (let sent = 0; sent < 60 * MB; sent += chunk.length) await upload.write(chunk);
    upload.req.end();
    const res = await upload.response;
    upload.req.destroy();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: expect.stringMatching(/^File size \(50\.\d\d MB\) exceeds maximum allowed size \(50MB\)$/),
    });
    await eventually(async () => expect(await t.storedFiles()).toEqual(before));
    expect(await rowsAt('chat-images/endless.bin')).toBe(0);
  });

  // fetch sends on while the answer comes: a refusal that closed the socket on unread bytes
  // reset it ('fetch failed'), where curl still read the 413.
  it.each([
    ['form', 51, 'File size (51.00 MB) exceeds maximum allowed size (50MB)'],
    ['stream', 80, expect.stringMatching(/^File size \(50\.\d\d MB\) exceeds maximum allowed size \(50MB\)$/)],
  ] as const)(
    "answers Node's fetch sending a %s of %i MB with the 413 and its JSON, storing nothing",
    async (mode, megabytes, message) => {
      const before = await t.storedFiles();
      const path = `chat-images/fetched-${mode}.bin`;
      const seen = await fetchUploadFromAnotherProcess({
        url: uploadUrl(),
        authorization: t.cast.alice.headers.authorization,
        path,
        megabytes,
        mode,
      });
      expect(seen).toEqual({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', error: message, message } });
      await eventually(async () => expect(await t.storedFiles()).toEqual(before));
      expect(await rowsAt(path)).toBe(0);
    },
  );

  it('leaves no file and no row when the client goes away mid-upload', async () => {
    const before = await t.storedFiles();
    const { before: head, after, contentType } = multipartAround('chat-images/aborted.bin', 'aborted.bin');
    const size = 20 * MB;
    const upload = openUpload(uploadUrl(), {
      ...t.cast.alice.headers,
      'content-type': contentType,
      'content-length': head.length + size + after.length,
    });
    await upload.write(head);
    const chunk = Buffer.alloc(256 * 1024, 3);
    for (let sent = 0; sent < 8 * MB; sent += chunk.length) await upload.write(chunk);
    // The server is storing the file (a temporary file, or a multipart upload in the bucket)...
    await eventually(async () => expect(await t.storedFiles()).not.toEqual(before));
    // ...when the client destroys the socket halfway through.
    upload.req.destroy();
    await expect(upload.response).rejects.toThrow();
    await eventually(async () => expect(await t.storedFiles()).toEqual(before));
    expect(await rowsAt('chat-images/aborted.bin')).toBe(0);
  });

  it.each([
    '../escape.txt',
    'chat-images/../../escape.txt',
    'chat-images/..%2F..%2Fescape.txt',
    'chat-images/%2e%2e/%2e%2e/escape.txt',
    '/etc/passwd',
    '/chat-images/absolute.txt',
    'chat-images/nul\u0000.txt',
    'chat-images\\..\\..\\escape.txt',
    'chat-images/./dot.txt',
    'chat-images//double.txt',
    `chat-images/${'a'.repeat(600)}.txt`,
  ])('refuses the path %j with 400, writing nothing anywhere', async (path) => {
    const before = await t.storedFiles();
    for (const parts of [fileAt(path, 'x', 'x.txt'), [...fileAt(path, 'x', 'x.txt')].reverse()]) {
      const res = await t.upload(t.cast.alice, parts);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/^Invalid request parameters: path /),
      });
    }
    expect((await t.download(t.cast.admin, `path=${encodeURIComponent(path)}`)).statusCode).toBe(400);
    expect(await t.storedFiles()).toEqual(before);
    // Nothing beside the data folder either.
    expect(await readdir(t.base)).toEqual(['data']);
  });

  it.each([
    ['no file', [{ name: 'path', value: 'chat-images/a.txt' }]],
    ['no path', [{ name: 'file', fileName: 'a.txt', bytes: Buffer.from('x') }]],
    ['an empty path', fileAt('', 'x', 'a.txt')],
    [
      'two files',
      [...fileAt('chat-images/two.txt', 'x'), { name: 'file', fileName: 'b.txt', bytes: Buffer.from('y') }],
    ],
    [
      'a file in another field',
      [
        { name: 'document', fileName: 'a.txt', bytes: Buffer.from('x') },
        { name: 'path', value: 'chat-images/other.txt' },
      ],
    ],
    ['bad options', [...fileAt('chat-images/opts.txt', 'x'), { name: 'options', value: '{upsert' }]],
  ])('answers 400 Invalid request parameters for %s, storing nothing', async (_case, parts) => {
    const before = await t.storedFiles();
    const res = await t.upload(t.cast.alice, parts);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^Invalid request parameters/),
    });
    expect(await t.storedFiles()).toEqual(before);
  });

  it('answers 400 for a body that is not multipart', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/storage/${t.projectId}/upload`,
      headers: t.cast.alice.headers,
      payload: { path: 'chat-images/a.txt' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
  });

  it.each([
    [{ paths: [] }, 'body.paths: Too small: expected array to have >=1 items'],
    [{ paths: [1] }, 'body.paths.0: Invalid input: expected string, received number'],
    [
      { paths: Array.from({ length: 101 }, (_, i) => `chat-images/${i}.txt`) },
      'body.paths: Too big: expected array to have <=100 items',
    ],
    [{}, 'body.paths: Invalid input: expected array, received undefined'],
  ])('refuses the removal %j with 400', async (payload, message) => {
    const res = await t.remove(t.cast.alice, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message });
  });

  it('refuses a download without a path', async () => {
    expect((await t.download(t.cast.alice, 'path=')).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'querystring.path: is required',
    });
    expect((await t.download(t.cast.alice, '')).json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
