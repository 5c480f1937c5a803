// `client.manuals` against the real server: upload (fetch and XMLHttpRequest transports) with
// the metadata the server read, save with tags, discard, delete, and refusals as the SDK's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../../apps/server/src/test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../../apps/server/src/test-support/users.js';
import { createClient, FieldAssistStorageError } from '../index.js';
import { FakeXhr } from '../storage/fake-xhr.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestUser;
let technician: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signUpUser(server.app); // the first account becomes admin
  [technician, viewer] = await Promise.all([
    signUpUser(server.app, { role: 'technician' }),
    signUpUser(server.app, { role: 'viewer' }),
  ]);
  await server.pool.query(
    "INSERT INTO release_versions (id, version_name, release_year) VALUES ('ver_1', 'Series 1', 2024)",
  );
  await server.pool.query("INSERT INTO tags (id, name) VALUES ('tag_pumps', 'Pumps')");
});
afterAll(() => server.close());

const manualsOf = (user: TestUser) =>
  createClient({
    projectId: server.projectId,
    baseUrl: server.url,
    getAccessToken: () => user.accessToken,
    auth: { mode: 'headless' },
  }).manuals;

const notes = () =>
  new File(['Centrifugal pump maintenance\nInspect the impeller and the seal.'], 'PN-100_pump_guide.txt', {
    type: 'text/plain',
  });

describe('client.manuals', () => {
  it('uploads with progress, saves with tags, and deletes', async () => {
    FakeXhr.install();
    try {
      const seen: number[] = [];
      const uploaded = await manualsOf(technician).upload(notes(), { onProgress: (percent) => seen.push(percent) });
      expect(FakeXhr.sent).toBe(1);
      expect(seen.at(-1)).toBe(100);
      expect(uploaded).toMatchObject({
        fileName: 'PN-100_pump_guide.txt',
        fileType: 'text/plain',
        metadata: { title: 'Centrifugal pump maintenance', technology: 'Pumps', partNumber: 'PN-100' },
      });
      const manual = await manualsOf(technician).save({
        path: uploaded.path,
        fileName: uploaded.fileName,
        versionId: 'ver_1',
        ...uploaded.metadata,
        tagIds: ['tag_pumps'],
      });
      expect(manual).toMatchObject({
        title: 'Centrifugal pump maintenance',
        partNumber: 'PN-100',
        processingStatus: 'pending',
        processingError: null,
      });
      const { rows } = await server.pool.query('SELECT tag_id FROM manual_tags WHERE manual_id = $1', [manual.id]);
      expect(rows).toEqual([{ tag_id: 'tag_pumps' }]);
      await manualsOf(admin).delete(manual.id);
      expect((await server.pool.query('SELECT 1 FROM manuals WHERE id = $1', [manual.id])).rowCount).toBe(0);
    } finally {
      FakeXhr.uninstall();
    }
  });

  it('discards an upload nobody saves', async () => {
    const uploaded = await manualsOf(technician).upload(notes());
    await manualsOf(technician).discard(uploaded.path);
    expect((await server.pool.query('SELECT 1 FROM storage_objects WHERE path = $1', [uploaded.path])).rowCount).toBe(
      0,
    );
  });

  it("gives the server's refusals as FieldAssistStorageError with its code and SPEC.md's message", async () => {
    const refused = await manualsOf(viewer)
      .upload(notes())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FieldAssistStorageError);
    expect(refused).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'You do not have permission to upload manuals',
    });
    const notAdmin = await manualsOf(technician)
      .delete('manual_x')
      .catch((error: unknown) => error);
    expect(notAdmin).toMatchObject({ status: 403, code: 'FORBIDDEN', message: 'Only admins can delete manuals' });
  });

  it('answers that do not fit the wire contract are INVALID_RESPONSE, naming the field', async () => {
    const answering = (body: unknown) =>
      createClient({
        projectId: server.projectId,
        baseUrl: server.url,
        getAccessToken: () => technician.accessToken,
        auth: { mode: 'headless' },
        fetch: async () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
      }).manuals;
    const uploaded = await manualsOf(technician).upload(notes());
    const { title: _title, ...noTitle } = uploaded.metadata;
    const refused = await answering({ ...uploaded, metadata: noTitle })
      .upload(notes())
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FieldAssistStorageError);
    expect(refused).toMatchObject({
      code: 'INVALID_RESPONSE',
      message: 'Invalid response format: missing metadata.title',
    });
    const saved = await answering({ id: 'manual_1', title: 'Pump guide' })
      .save({ path: uploaded.path, versionId: 'ver_1' })
      .catch((error: unknown) => error);
    expect(saved).toMatchObject({ code: 'INVALID_RESPONSE' });
    await manualsOf(technician).discard(uploaded.path);
  });
});
