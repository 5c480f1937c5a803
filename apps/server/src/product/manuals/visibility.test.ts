// The one visibility rule (SPEC.md section 6): a system planner is hidden from a viewer by the
// REST API, by the chat's retrieval and by file download alike, and shown to a technician by all three.
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../storage/test-support/upload-requests.js';
import { dataParts } from '../../test-support/sse.js';
import { signUpUser, type TestUser } from '../../test-support/users.js';
import {
  createManual,
  signUpLibrarians,
  useLibrary,
  waitForIngestion,
} from '../ingestion/test-support/library-apps.js';

const lib = useLibrary();
let app: FastifyInstance;
let people: { technician: TestUser; viewer: TestUser };

beforeAll(async () => {
  app = await lib.start();
  const { technician } = await signUpLibrarians(app);
  people = { technician, viewer: await signUpUser(app, { role: 'viewer' }) };
});

/** Stores a text file in the library and saves it as a manual of this type; returns its id and storage path once ingested. */
async function addManual(title: string, text: string, documentType: 'manual' | 'system_planner') {
  const fileName = `${title.replaceAll(' ', '_')}.txt`;
  const { payload, contentType } = multipart([
    { name: 'path', value: `manuals/${Date.now()}_${fileName}` },
    { name: 'file', fileName, bytes: Buffer.from(text) },
  ]);
  const stored = await app.inject({
    method: 'POST',
    url: '/api/storage/fieldassist/upload',
    headers: { ...people.technician.headers, 'content-type': contentType },
    payload,
  });
  const { publicUrl, path } = stored.json<{ publicUrl: string; path: string }>();
  const manual = await createManual(app, people.technician, {
    fileUrl: publicUrl,
    fileName,
    bytes: text.length,
    title,
  });
  await lib.pool.query('UPDATE manuals SET document_type = $2 WHERE id = $1', [manual.id, documentType]);
  expect(await waitForIngestion(lib.pool, manual.id)).toMatchObject({ processing_status: 'ready' });
  return { id: manual.id, path };
}

/** What one user can reach of these manuals through each of the three ways. */
async function reachable(user: TestUser, manuals: { id: string; path: string }[]) {
  const ids = manuals.map((m) => m.id).join(',');
  const rest = async (table: string, column: string) =>
    (
      await app.inject({
        method: 'GET',
        url: `/api/db/fieldassist/rest/v1/${table}?${column}=in.(${ids})&select=${column}`,
        headers: user.headers,
      })
    )
      .json<Record<string, string>[]>()
      .map((row) => row[column]);
  const chat = await app.inject({
    method: 'POST',
    url: '/api/app/fieldassist/chat',
    headers: user.headers,
    payload: { question: 'Valve V-17 lockout before draining chiller RC-50' },
  });
  const sources = dataParts<{ type: string; data: { manualId: string }[] }>(chat.body.split('\n')).find(
    (part) => part.type === 'data-sources',
  )!.data;
  const downloads = await Promise.all(
    manuals.map(async (m) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/storage/fieldassist/download?path=${encodeURIComponent(m.path)}`,
          headers: user.headers,
        })
      ).statusCode === 200
        ? m.id
        : undefined,
    ),
  );
  return {
    rest: [...new Set([...(await rest('manuals', 'id')), ...(await rest('manual_content', 'manual_id'))])].sort(),
    retrieval: [...new Set(sources.map((s) => s.manualId))].sort(),
    download: downloads.filter(Boolean).sort(),
  };
}

describe('who sees a system planner', () => {
  it('hides it from a viewer through REST, retrieval and file download alike, and shows it to a technician', async () => {
    const planner = await addManual(
      'Plant Room System Planner',
      'Isolate valve V-17 with lockout tag LT-9 before draining chiller RC-50.',
      'system_planner',
    );
    const manual = await addManual(
      'Chiller RC-50 Service Manual',
      'Before draining chiller RC-50, close valve V-17 and fit a lockout.',
      'manual',
    );
    const both = [planner.id, manual.id].sort();
    expect(await reachable(people.technician, [planner, manual])).toEqual({
      rest: both,
      retrieval: both,
      download: both,
    });
    expect(await reachable(people.viewer, [planner, manual])).toEqual({
      rest: [manual.id],
      retrieval: [manual.id],
      download: [manual.id],
    });
  });

  it("keeps a planner's entry embeddings (migration 029) from a viewer through REST, as its chunks", async () => {
    const planner = await addManual(
      'Pump Room System Planner',
      'Isolate pump P-4 at breaker QF-3 before opening the pump room.',
      'system_planner',
    );
    await lib.pool.query("UPDATE manual_content SET entry_embeddings = '\\x0000803f' WHERE manual_id = $1", [
      planner.id,
    ]);
    const entries = async (user: TestUser) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/db/fieldassist/rest/v1/manual_content?manual_id=eq.${planner.id}&select=entry_embeddings`,
          headers: user.headers,
        })
      ).json<{ entry_embeddings: unknown }[]>();
    expect(await entries(people.viewer)).toEqual([]);
    expect((await entries(people.technician)).length).toBeGreaterThan(0);
  });
});
