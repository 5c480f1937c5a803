import { describe, expect, it } from 'vitest';
import { PNG } from './test-support/fixtures.js';
import type { Driver } from './test-support/storage-app.js';
import { fileAt, useStorageApp } from './test-support/storage-calls.js';

// Who may write, read and remove which files (SPEC.md section 6, PLATFORM_API.md section 4).
describe.each<Driver>(['disk', 's3'])('storage permissions on the %s driver', (driver) => {
  const t = useStorageApp(driver);
  const forbidden = (message: string) => ({ code: 'FORBIDDEN', message, error: message });

  it('refuses signed-out callers with 401 before reading anything', async () => {
    const before = await t.storedFiles();
    const upload = await t.upload(undefined, fileAt('chat-images/anon.png', PNG));
    expect(upload.statusCode).toBe(401);
    expect(upload.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Authentication required' });
    expect(
      (
        await t.upload(
          { ...t.cast.alice, headers: { authorization: 'Bearer forged' } },
          fileAt('chat-images/anon.png', PNG),
        )
      ).json().code,
    ).toBe('INVALID_TOKEN');
    expect((await t.download(undefined, 'path=manuals/x.pdf')).statusCode).toBe(401);
    expect((await t.remove(undefined, { paths: ['manuals/x.pdf'] })).statusCode).toBe(401);
    expect(await t.storedFiles()).toEqual(before);
  });

  it.each(['admin', 'technician'] as const)('lets a %s upload manuals', async (role) => {
    const res = await t.upload(t.cast[role], fileAt(`manuals/${role}-${Date.now()}.png`, PNG));
    expect(res.statusCode).toBe(200);
  });

  it("refuses manuals to a manager, a viewer and a user without a role, with SPEC.md's message", async () => {
    const before = await t.storedFiles();
    for (const user of [t.cast.manager, t.cast.viewer, t.cast.alice]) {
      const res = await t.upload(user, fileAt('manuals/not-mine.png', PNG));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(forbidden('You do not have permission to upload manuals'));
    }
    // The path may come first: refused before any byte is stored.
    expect((await t.upload(t.cast.viewer, [...fileAt('manuals/not-mine.png', PNG)].reverse())).statusCode).toBe(403);
    expect(await t.storedFiles()).toEqual(before);
  });

  it('keeps other top-level folders for the service key', async () => {
    expect((await t.upload(t.cast.admin, fileAt('exports/report.txt', 'x'))).json()).toEqual(
      forbidden('You do not have permission to upload to this folder'),
    );
    expect((await t.upload(t.cast.alice, fileAt('top-level.txt', 'x'))).statusCode).toBe(403);
    expect((await t.upload('service', fileAt('exports/report.txt', 'x'))).statusCode).toBe(200);
  });

  it('lets only the owner or an admin overwrite or remove a chat image', async () => {
    const path = `chat-images/${Date.now()}.png`;
    const original = (await t.upload(t.cast.alice, fileAt(path, PNG))).json();
    const upsert = { name: 'options', value: JSON.stringify({ upsert: true }) };

    const bobsPng = await t.upload(t.cast.bob, [...fileAt(path, PNG), upsert]);
    expect(bobsPng.json()).toEqual(forbidden('You can only overwrite your own files'));
    const refused = await t.remove(t.cast.bob, { paths: [path] });
    expect(refused.json()).toEqual(forbidden('You can only remove your own files'));
    expect((await t.fetchFile(original.publicUrl)).statusCode).toBe(200);

    const byAdmin = await t.upload(t.cast.admin, [...fileAt(path, PNG), upsert]);
    expect(byAdmin.statusCode).toBe(200);
    expect((await t.fetchFile(original.publicUrl)).statusCode).toBe(404);
    // Alice still owns it: the admin replaced the bytes, not the owner.
    expect((await t.download(t.cast.alice, `path=${path}`)).statusCode).toBe(200);
    expect((await t.remove(t.cast.admin, { paths: [path] })).json()).toEqual({ removed: [path] });
    expect((await t.fetchFile(byAdmin.json().publicUrl)).statusCode).toBe(404);
  });

  it("refuses a removal as a whole when one of the files is not the caller's", async () => {
    const mine = (await t.upload(t.cast.bob, fileAt(`chat-images/bob-${Date.now()}.png`, PNG))).json();
    const hers = (await t.upload(t.cast.alice, fileAt(`chat-images/alice-${Date.now()}.png`, PNG))).json();
    expect((await t.remove(t.cast.bob, { paths: [mine.path, hers.path] })).statusCode).toBe(403);
    expect((await t.fetchFile(mine.publicUrl)).statusCode).toBe(200);
    expect((await t.remove(t.cast.bob, { paths: [mine.path] })).json()).toEqual({ removed: [mine.path] });
  });

  it('gives the download link of an avatar to its owner and admins only', async () => {
    const path = `avatars/${t.cast.alice.id}.png`;
    expect((await t.upload(t.cast.alice, fileAt(path, PNG))).statusCode).toBe(200);
    expect((await t.download(t.cast.alice, `path=${path}`)).statusCode).toBe(200);
    expect((await t.download(t.cast.admin, `path=${path}`)).statusCode).toBe(200);
    expect((await t.download('service', `path=${path}`)).statusCode).toBe(200);
    // Someone else's file looks exactly like a missing one.
    const other = await t.download(t.cast.bob, `path=${path}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual((await t.download(t.cast.bob, 'path=avatars/nobody.png')).json());
    expect((await t.download(t.cast.technician, `path=${path}`)).statusCode).toBe(404);
  });

  it('serves a library file to every signed-in user once a manual uses it, and before that to its uploader and admins only', async () => {
    const path = `manuals/${Date.now()}_library.png`;
    const { publicUrl } = (await t.upload(t.cast.technician, fileAt(path, PNG))).json();
    for (const user of [t.cast.technician, t.cast.admin])
      expect((await t.download(user, `path=${path}`)).statusCode).toBe(200);
    for (const user of [t.cast.viewer, t.cast.alice, t.cast.manager])
      expect((await t.download(user, `path=${path}`)).statusCode).toBe(404);
    await t.pool.query(
      "INSERT INTO manuals (id, title, file_url, file_name) VALUES ($1, 'Library file', $2, 'library.png')",
      [`manual_${Date.now()}`, publicUrl],
    );
    for (const user of [t.cast.viewer, t.cast.alice, t.cast.manager])
      expect((await t.download(user, `path=${path}`)).statusCode).toBe(200);
    // Only the uploader or an admin removes a manual's file.
    expect((await t.remove(t.cast.manager, { paths: [path] })).statusCode).toBe(403);
    expect((await t.remove(t.cast.admin, { paths: [path] })).statusCode).toBe(200);
  });
});
