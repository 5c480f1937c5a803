import { describe, expect, it } from 'vitest';
import { PNG } from './test-support/fixtures.js';
import { type Driver, TEST_PUBLIC_URL } from './test-support/storage-app.js';
import { fileAt, useStorageApp } from './test-support/storage-calls.js';

// The same suite runs on the disk driver and on a real S3 peer.
describe.each<Driver>(['disk', 's3'])('storage on the %s driver', (driver) => {
  const t = useStorageApp(driver);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

  it('uploads, downloads and removes a manual', async () => {
    const before = await t.storedFiles();
    const path = `manuals/${Date.now()}_Pump manual (rev 2).pdf`;
    const uploaded = await t.upload(t.cast.technician, fileAt(path, pdf));
    expect(uploaded.statusCode).toBe(200);
    const { publicUrl } = uploaded.json();
    expect(uploaded.json()).toEqual({
      publicUrl: expect.stringMatching(
        /^https:\/\/files\.fieldassist\.test\/files\/[0-9a-f]{32}\/\d+_Pump_manual_rev_2_\.pdf$/,
      ),
      path,
    });
    expect(publicUrl).not.toContain('manuals');
    expect(await t.storedFiles()).toHaveLength(before.length + 1);

    const served = await t.fetchFile(publicUrl);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(pdf);
    expect(served.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'content-disposition': expect.stringMatching(/^inline; filename="\d+_Pump manual \(rev 2\)\.pdf"/),
    });

    // The library is read by every signed-in user once a manual uses the file.
    await t.pool.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ($1, 'Pump manual', $2, 'pump.pdf')",
      [`manual_${Date.now()}`, publicUrl],
    );
    const link = await t.download(t.cast.viewer, `path=${encodeURIComponent(path)}`);
    expect(link.statusCode).toBe(200);
    expect(link.json()).toEqual({
      downloadUrl: `${publicUrl}?download=1&filename=${encodeURIComponent(path.slice(8))}`,
      filename: path.slice(8),
      contentType: 'application/pdf',
      size: pdf.length,
    });
    const saved = await t.fetchFile(link.json().downloadUrl);
    expect(saved.headers['content-disposition']).toBe(
      `attachment; filename="${path.slice(8)}"; filename*=UTF-8''${encodeURIComponent(path.slice(8)).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    );
    expect(saved.rawPayload).toEqual(pdf);

    expect(await t.fileStore.readByPublicUrl(publicUrl)).toEqual({
      bytes: pdf,
      contentType: 'application/pdf',
      fileName: path.slice(8),
      size: pdf.length,
    });

    const removed = await t.remove(t.cast.technician, { paths: [path, 'manuals/never-uploaded.pdf'] });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ removed: [path] });
    expect((await t.download(t.cast.viewer, `path=${encodeURIComponent(path)}`)).json()).toEqual({
      error: 'File not found',
      message: 'File not found',
      code: 'NOT_FOUND',
    });
    expect((await t.fetchFile(publicUrl)).statusCode).toBe(404);
    expect(await t.fileStore.readByPublicUrl(publicUrl)).toBeUndefined();
    expect(await t.storedFiles()).toEqual(before);
  });

  it('takes the path before or after the file part', async () => {
    const res = await t.upload(t.cast.alice, [
      { name: 'path', value: 'chat-images/path-first.txt' },
      { name: 'file', fileName: 'blob', bytes: Buffer.from('hi') },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().path).toBe('chat-images/path-first.txt');
    expect((await t.fetchFile(res.json().publicUrl)).body).toBe('hi');
  });

  it('corrects the extension to the detected type: a PNG named .pdf is stored as .png', async () => {
    const res = await t.upload(t.cast.alice, fileAt('chat-images/photo.pdf', PNG, 'photo.pdf'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publicUrl: expect.stringMatching(/\/photo\.png$/), path: 'chat-images/photo.png' });
    const served = await t.fetchFile(res.json().publicUrl);
    expect(served.headers).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': 'inline; filename="photo.png"; filename*=UTF-8\'\'photo.png',
    });
    expect((await t.download(t.cast.alice, 'path=chat-images/photo.png')).json()).toMatchObject({
      contentType: 'image/png',
      size: PNG.length,
    });
    expect((await t.download(t.cast.alice, 'path=chat-images/photo.pdf')).statusCode).toBe(404);
  });

  it('serves a file with a long name (the key stays within the URL limits)', async () => {
    const name = `${'Very long manual title '.repeat(8).trim()}.txt`;
    const res = await t.upload(t.cast.alice, fileAt(`chat-images/${name}`, 'long'));
    expect(res.statusCode).toBe(200);
    expect((await t.fetchFile(res.json().publicUrl)).body).toBe('long');
  });

  it('stores a zero-byte file', async () => {
    const res = await t.upload(t.cast.alice, fileAt('chat-images/empty.txt', ''));
    expect(res.statusCode).toBe(200);
    const served = await t.fetchFile(res.json().publicUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-length']).toBe('0');
    expect(served.rawPayload).toHaveLength(0);
    expect((await t.download(t.cast.alice, 'path=chat-images/empty.txt')).json()).toMatchObject({ size: 0 });
    expect((await t.fetchFile(res.json().publicUrl, { range: 'bytes=0-' })).statusCode).toBe(416);
  });

  it('refuses an existing path without upsert, keeping the first file and no trace of the second', async () => {
    const first = await t.upload(t.cast.alice, fileAt('chat-images/same.txt', 'first'));
    const before = await t.storedFiles();
    const again = await t.upload(t.cast.alice, fileAt('chat-images/same.txt', 'second'));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'File already exists. Set upsert: true to overwrite.',
      message: 'File already exists. Set upsert: true to overwrite.',
      code: 'CONFLICT',
    });
    expect((await t.fetchFile(first.json().publicUrl)).body).toBe('first');
    expect(await t.storedFiles()).toEqual(before);

    // upsert from an `options` field (JSON) or an `upsert` field replaces it under a new key.
    const replaced = await t.upload(t.cast.alice, [
      ...fileAt('chat-images/same.txt', 'third'),
      { name: 'options', value: '{"upsert":true}' },
    ]);
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().publicUrl).not.toBe(first.json().publicUrl);
    expect((await t.fetchFile(replaced.json().publicUrl)).body).toBe('third');
    expect((await t.fetchFile(first.json().publicUrl)).statusCode).toBe(404);
    const again2 = await t.upload(t.cast.alice, [
      { name: 'upsert', value: 'true' },
      ...fileAt('chat-images/same.txt', 'fourth'),
    ]);
    expect((await t.fetchFile(again2.json().publicUrl)).body).toBe('fourth');
    expect(await t.storedFiles()).toHaveLength(before.length);
  });

  it('serves byte ranges, validators and HEAD', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const { publicUrl } = (await t.upload(t.cast.alice, fileAt('chat-images/data.raw', bytes))).json();
    const part = async (range: string) => t.fetchFile(publicUrl, { range });

    const first = await part('bytes=0-9');
    expect(first.statusCode).toBe(206);
    expect(first.headers).toMatchObject({
      'content-range': 'bytes 0-9/1000',
      'content-length': '10',
      'accept-ranges': 'bytes',
    });
    expect(first.rawPayload).toEqual(bytes.subarray(0, 10));
    const rest = await part('bytes=100-');
    expect(rest.headers['content-range']).toBe('bytes 100-999/1000');
    expect(rest.rawPayload).toEqual(bytes.subarray(100));
    const suffix = await part('bytes=-10');
    expect(suffix.headers['content-range']).toBe('bytes 990-999/1000');
    expect(suffix.rawPayload).toEqual(bytes.subarray(990));
    const beyond = await part('bytes=1000-');
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */1000');
    expect(beyond.headers['cache-control']).toBeUndefined();
    expect((await part('bytes=0-1,5-6')).statusCode).toBe(200);

    const whole = await t.fetchFile(publicUrl);
    expect(whole.headers).toMatchObject({
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
      'last-modified': expect.any(String),
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect((await t.fetchFile(publicUrl, { 'if-none-match': whole.headers.etag as string })).statusCode).toBe(304);
    expect((await t.fetchFile(publicUrl, { range: 'bytes=0-9', 'if-range': '"stale"' })).statusCode).toBe(200);
    const head = await t.fetchFile(publicUrl, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.rawPayload).toHaveLength(0);
  });

  it.each([
    [
      'HTML',
      'chat-images/page.html',
      '<!doctype html><script>alert(document.cookie)</script>',
      'text/html; charset=utf-8',
    ],
    [
      'SVG',
      'chat-images/pic.svg',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'image/svg+xml; charset=utf-8',
    ],
    [
      'SVG with an XML prologue',
      'chat-images/pic2.svg',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'image/svg+xml',
    ],
  ])('serves %s as a sandboxed attachment, never sniffed', async (_kind, path, content, contentType) => {
    const res = await t.upload(t.cast.alice, [
      { name: 'path', value: path },
      { name: 'file', fileName: 'x', contentType: 'image/png', bytes: Buffer.from(content) },
    ]);
    expect(res.json().path).toBe(path);
    const served = await t.fetchFile(res.json().publicUrl);
    expect(served.headers).toMatchObject({
      'content-type': contentType,
      'content-disposition': expect.stringMatching(/^attachment;/),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
    });
  });

  it('shows plain text inline, sandboxed too', async () => {
    const { publicUrl } = (await t.upload(t.cast.alice, fileAt('chat-images/notes.txt', 'Torque: 12 Nm'))).json();
    expect((await t.fetchFile(publicUrl)).headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-disposition': expect.stringMatching(/^inline;/),
      'content-security-policy': "sandbox; default-src 'none'",
    });
  });

  it('names a download as asked, cleaned of quotes and slashes', async () => {
    await t.upload(t.cast.alice, fileAt('avatars/alice.png', PNG));
    const link = (
      await t.download(t.cast.alice, `path=avatars/alice.png&filename=${encodeURIComponent('my "face"/../x.png')}`)
    ).json();
    expect(link.filename).toBe('my face..x.png');
    expect((await t.fetchFile(link.downloadUrl)).headers['content-disposition']).toMatch(
      /^attachment; filename="my face\.\.x\.png"/,
    );
  });

  it('answers 404 for keys that are not stored, and reads only its own URLs', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/files/${'0'.repeat(32)}/x.png` })).json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'File not found',
    });
    expect((await t.app.inject({ method: 'GET', url: '/files/../../etc/passwd' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd' })).statusCode).toBe(404);
    const { publicUrl } = (await t.upload(t.cast.alice, fileAt('chat-images/mine.txt', 'x'))).json();
    expect(
      await t.fileStore.readByPublicUrl(publicUrl.replace(TEST_PUBLIC_URL, 'https://elsewhere.test')),
    ).toBeUndefined();
    expect(await t.fileStore.readByPublicUrl('not a url')).toBeUndefined();
    expect(await t.fileStore.removeByPublicUrl(publicUrl)).toBe(true);
    expect(await t.fileStore.removeByPublicUrl(publicUrl)).toBe(false);
    expect((await t.fetchFile(publicUrl)).statusCode).toBe(404);
  });

  it("answers a plain 404 when a file's bytes are missing from the store", async () => {
    const { publicUrl } = (await t.upload(t.cast.alice, fileAt('chat-images/lost.txt', 'soon gone'))).json();
    await t.storage.remove(new URL(publicUrl).pathname.slice('/files/'.length));
    const res = await t.fetchFile(publicUrl);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'File not found', message: 'File not found', code: 'NOT_FOUND' });
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['cache-control']).toBeUndefined();
  });
});
