import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeManualPdf } from '../../src/data/fixtures/make-documents.js';
import { freePort } from '../../src/db/embedded.js';
import { newStorageKey } from '../../src/storage/paths.js';
import { ORPHAN_MIN_AGE_MS } from '../../src/storage/sweep-orphans.js';
import { eventually } from '../../src/storage/test-support/upload-requests.js';
import { createTestDatabase } from '../../src/test-support/test-database.js';
import { TEST_AUTH_SECRET, TEST_SERVICE_KEY } from '../../src/test-support/test-server.js';
import { TEST_PASSWORD } from '../../src/test-support/users.js';
import { type ServerProcess, startServerProcess } from '../../src/test-support/server-process.js';

// kill -9 of the real server process in the middle of concurrent uploads, manual ingestion
// and streamed chats (local AI provider), then a restart on the same DATA_DIR and database.
// Nothing may be lost or half-kept: every storage row has its whole file and every file a
// row; every manual ends 'ready' with one set of chunks; every chat whose stream the client
// saw finish (it got the data-message part) is in the history exactly once.

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let dataDir: string;
let port: number;
let server: ServerProcess | undefined;
const service = { authorization: `Bearer ${TEST_SERVICE_KEY}` };

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(join(tmpdir(), 'fa-faults-'));
  port = await freePort();
});

afterAll(async () => {
  await server?.kill9();
  await rm(dataDir, { recursive: true, force: true });
});

const start = () =>
  startServerProcess(port, {
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    SERVICE_KEY: TEST_SERVICE_KEY,
    AUTH_SECRET: TEST_AUTH_SECRET,
  });
const api = (path: string, init: RequestInit = {}) => fetch(`${server!.url}${path}`, init);
const json = { 'content-type': 'application/json' };

async function signUp(email: string, role?: string) {
  if (role)
    await api('/api/db/fieldassist/rest/v1/user_roles', {
      method: 'POST',
      headers: { ...service, ...json },
      body: JSON.stringify({ user_id: email, role }),
    });
  const res = await api('/api/auth/signup', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-up ${email}: ${res.status} ${await res.text()}`);
  return { authorization: `Bearer ${(await res.json()).access_token}` };
}

async function upload(headers: Record<string, string>, path: string, bytes: Buffer, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('path', path);
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), path.split('/').pop());
  const res = await api('/api/storage/fieldassist/upload', { method: 'POST', headers, body: form });
  if (!res.ok) throw new Error(`upload ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()).publicUrl as string;
}

/** Streams one chat answer; returns the saved message id as soon as the data-message part arrives. */
async function chat(headers: Record<string, string>, question: string): Promise<string | undefined> {
  const res = await api('/api/app/fieldassist/chat', {
    method: 'POST',
    headers: { ...headers, ...json },
    body: JSON.stringify({ question }),
  });
  if (!res.ok || !res.body) return undefined;
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of res.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    const match = /data: (\{"type":"data-message".*?\})\n/.exec(text);
    if (match) return JSON.parse(match[1]!).data.id as string;
  }
  return undefined;
}

/** Runs `work` over and over until `stop` is set, ignoring the failures the kill causes. */
function loop(stop: { now: boolean }, work: (i: number) => Promise<void>) {
  return (async () => {
    for (let i = 0; !stop.now; i++) await work(i).catch(() => undefined);
  })();
}

it('loses nothing when killed -9 during uploads, ingestion and streamed chats', { timeout: 120_000 }, async () => {
  server = await start();
  const admin = await signUp('admin@example.com'); // first account: admin
  const technicians = await Promise.all([1, 2, 3, 4].map((n) => signUp(`tech${n}@example.com`, 'technician')));
  const pdfs = await Promise.all([150, 200, 250].map((pages) => makeManualPdf(pages)));

  // Three manuals saved just before the kill, so their ingestion is under way when it comes.
  const manualIds: string[] = [];
  for (const [i, pdf] of pdfs.entries()) {
    const fileUrl = await upload(admin, `manuals/manual-${i}.pdf`, pdf, 'application/pdf');
    const res = await api('/api/db/fieldassist/rest/v1/manuals', {
      method: 'POST',
      headers: { ...admin, ...json },
      body: JSON.stringify({
        title: `Manual ${i}`,
        file_url: fileUrl,
        file_name: `manual-${i}.pdf`,
        file_size: pdf.length,
      }),
    });
    manualIds.push((await res.json())[0].id);
  }

  const stop = { now: false };
  const finishedChats: string[] = [];
  const finishedUploads: string[] = [];
  const load = [
    // Uploads of 256 KB to 4 MB: some are being written, renamed or recorded when the kill comes.
    ...technicians.map((headers, w) =>
      loop(stop, async (i) => {
        finishedUploads.push(
          await upload(headers, `chat-images/w${w}-${i}.bin`, randomBytes(256 * 1024 * (1 + ((w + i) % 16)))),
        );
      }),
    ),
    ...technicians.map((headers, w) =>
      loop(stop, async (i) => {
        const id = await chat(headers, `How do I torque bolt ${w}-${i} on the compressor?`);
        if (id) finishedChats.push(id);
      }),
    ),
  ];
  // The kill comes after 1.5 s of load and once a chat has finished: on a busy machine (other test
  // files alongside) the first answers can take longer than that.
  const loadStarted = Date.now();
  const elapsed = () => Date.now() - loadStarted;
  while (elapsed() < 1500 || (finishedChats.length === 0 && elapsed() < 60_000))
    await new Promise((r) => setTimeout(r, 50));
  const atKill = (
    await db.pool.query("SELECT count(*)::int AS n FROM manuals WHERE id = ANY($1) AND processing_status <> 'ready'", [
      manualIds,
    ])
  ).rows[0].n as number;
  await server.kill9();
  stop.now = true;
  await Promise.all(load);
  // The kill came in the middle of things: chats had finished, manuals had not.
  expect(finishedChats.length).toBeGreaterThan(0);
  expect(atKill).toBeGreaterThan(0);

  // A file is renamed into place before its row is written, so the kill may have left a whole
  // file without a row (never a row without its file): at most one per uploader, the upload it
  // had in flight. Aged past the sweep's safety age, the restart removes it (and one planted
  // here, so there surely is one).
  const root = join(dataDir, 'storage');
  const storedFiles = async () =>
    (await readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)))
      .filter((path) => !path.startsWith('.tmp'));
  const rowKeys = async () =>
    new Set((await db.pool.query<{ key: string }>('SELECT key FROM storage_objects')).rows.map((r) => r.key));
  const orphans = async () => {
    const keys = await rowKeys();
    return (await storedFiles()).filter((file) => !keys.has(file));
  };
  expect((await orphans()).length).toBeLessThanOrEqual(technicians.length);
  const planted = join(root, newStorageKey('left-by-a-crash.bin'));
  await mkdir(dirname(planted));
  await writeFile(planted, randomBytes(1024));
  const past = new Date(Date.now() - 2 * ORPHAN_MIN_AGE_MS);
  for (const file of await storedFiles()) await utimes(join(root, file), past, past);

  server = await start();

  // Every manual is ingested again to the end, with one set of chunks.
  const deadline = Date.now() + 60_000;
  let statuses: { id: string; processing_status: string }[] = [];
  while (Date.now() < deadline) {
    statuses = (await db.pool.query('SELECT id, processing_status FROM manuals WHERE id = ANY($1)', [manualIds])).rows;
    if (statuses.every((m) => m.processing_status === 'ready' || m.processing_status === 'failed')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(statuses.map((m) => m.processing_status)).toEqual(['ready', 'ready', 'ready']);
  const duplicates = await db.pool.query(
    'SELECT manual_id, chunk_index, count(*) FROM manual_content GROUP BY 1, 2 HAVING count(*) > 1',
  );
  expect(duplicates.rows).toEqual([]);
  const gaps = await db.pool.query(
    'SELECT manual_id FROM manual_content GROUP BY 1 HAVING max(chunk_index) + 1 <> count(*)',
  );
  expect(gaps.rows).toEqual([]);

  // Every chat the client saw finish is in the history, once.
  const saved = await db.pool.query<{ id: string; n: number }>(
    'SELECT id, count(*)::int AS n FROM chat_messages WHERE id = ANY($1) GROUP BY id',
    [finishedChats],
  );
  expect(saved.rows.map((r) => r.id).sort()).toEqual([...new Set(finishedChats)].sort());
  expect(saved.rows.every((r) => r.n === 1)).toBe(true);

  // Every stored object has its whole file, and every file its row: the restart swept the orphans.
  const objects = (await db.pool.query<{ key: string; size: string }>('SELECT key, size FROM storage_objects')).rows;
  for (const object of objects) expect((await stat(join(root, object.key))).size, object.key).toBe(Number(object.size));
  await eventually(async () => expect(await orphans()).toEqual([]));
  const files = await storedFiles();
  expect(objects.every((o) => files.includes(o.key))).toBe(true);
  // Every upload the client was told had succeeded is still there, whole.
  expect(finishedUploads.length).toBeGreaterThan(0);
  for (const publicUrl of finishedUploads) {
    const res = await api(new URL(publicUrl).pathname, { method: 'HEAD' });
    expect(res.status, publicUrl).toBe(200);
  }

  // And the server answers as before.
  expect((await api('/api/db/fieldassist/rest/v1/jobs', { headers: technicians[0] })).status).toBe(200);
});
