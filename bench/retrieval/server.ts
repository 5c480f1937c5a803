/**
 * The real server of bench/retrieval's runs (run.ts, scale.ts): started as main.ts builds it,
 * with accounts through the real sign-up, manuals uploaded as the web app does so the server's
 * ingestion worker reads them, and questions asked through POST /api/app/{project}/chat.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { createPool } from '../../apps/server/src/db/pool.js';
import type { Cleanups } from '../tools/database.js';
import type { fetchManuals } from './manuals.js';
import { scanCopy } from './scan-copy.js';

const HOST = '127.0.0.1';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since: number) => (performance.now() - since) / 1000;
type Log = (message: string) => void;

/** The server on loopback; with `aiBaseUrl`, its AI model is the OpenAI-compatible peer there (else it answers by itself). */
export async function startServer(
  databaseUrl: string,
  dataDir: string,
  cleanups: Cleanups,
  { aiBaseUrl }: { aiBaseUrl?: string } = {},
) {
  const pool = createPool(databaseUrl, 10);
  cleanups.push(() => pool.end());
  await migrate(pool);
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST,
    PORT: '0',
    DATABASE_URL: databaseUrl,
    DB_POOL_MAX: '10',
    DATA_DIR: dataDir,
    WEB_DIST: '/nonexistent',
    // On a heavily loaded machine the 715-page manual can outlast the default 60 s extraction limit.
    ...(process.env.EXTRACT_TIMEOUT_MS ? { EXTRACT_TIMEOUT_MS: process.env.EXTRACT_TIMEOUT_MS } : {}),
    ...(aiBaseUrl && { AI_BASE_URL: aiBaseUrl, AI_API_KEY: 'bench-key', AI_MODEL: 'bench-model' }),
  });
  const app = await buildApp({
    config: {
      ...config,
      serviceKey: `blnk_sk_bench_${randomBytes(24).toString('hex')}`,
      authSecret: randomBytes(48).toString('base64url'),
    },
    pool,
  });
  cleanups.push(() => app.close());
  await app.listen({ port: 0, host: HOST });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('the server has no address');
  const postgres = (await pool.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
  return { app, pool, projectId: config.projectId, url: `http://${HOST}:${address.port}`, postgres };
}
export type Server = Awaited<ReturnType<typeof startServer>>;

async function call<T>(server: Server, path: string, init: RequestInit & { token: string }): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${init.token}`, ...init.headers },
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return (body ? JSON.parse(body) : null) as T;
}

/**
 * Accounts through the real sign-up, invited first (user_roles) as an admin would: one admin,
 * then one account per role given. Each signs up from its own address: the per-address sign-up
 * limit is not what the benches measure.
 */
export async function signUp(
  server: Server,
  roles: ('technician' | 'viewer')[],
): Promise<{ admin: string; users: { token: string; role: 'technician' | 'viewer' }[] }> {
  const tag = randomBytes(4).toString('hex');
  const tokens: string[] = [];
  for (const [i, role] of ['admin', ...roles].entries()) {
    const email = `bench-retrieval-${tag}-${i}@example.com`;
    await server.pool.query('INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, $3, $4)', [
      `role_${randomBytes(8).toString('hex')}`,
      email,
      role,
      'bench',
    ]);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: `10.9.${i >> 8}.${i & 255}`,
      payload: { email, password: 'bench-password-0123', projectId: server.projectId },
    });
    if (res.statusCode !== 200) throw new Error(`sign-up failed: HTTP ${res.statusCode} ${res.body}`);
    tokens.push(res.json<{ access_token: string }>().access_token);
  }
  return { admin: tokens[0]!, users: roles.map((role, i) => ({ token: tokens[i + 1]!, role })) };
}

type Manual = Awaited<ReturnType<typeof fetchManuals>>[number];

/** The upload of apps/web's use-manual-upload: the file into storage under manuals/, then the manuals row. */
async function uploadManual(
  server: Server,
  token: string,
  manual: { name: string; title: string; path: string },
  { scanned, log }: { scanned: boolean; log: Log },
) {
  const bytes = scanned ? await scanCopy(await readFile(manual.path), log) : await readFile(manual.path);
  const fileName = `${manual.name}.pdf`;
  const form = new FormData();
  form.append('path', `manuals/${Date.now()}_${fileName}`);
  form.append('options', JSON.stringify({ upsert: true }));
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), fileName);
  const stored = await call<{ publicUrl: string }>(server, `/api/storage/${server.projectId}/upload`, {
    method: 'POST',
    body: form,
    token,
  });
  const id = `manual_${randomBytes(16).toString('hex')}`;
  await call(server, `/api/db/${server.projectId}/rest/v1/manuals`, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      id,
      title: manual.title,
      file_url: stored.publicUrl,
      file_name: fileName,
      file_size: bytes.length,
      file_type: 'application/pdf',
      document_type: 'manual',
    }),
  });
  return id;
}

/** Every chosen manual ready in the library; the ones already there are kept unless --reingest. */
export async function ingest(
  server: Server,
  token: string,
  manuals: Manual[],
  opts: { reingest: boolean; scanned: boolean; log: Log },
) {
  const { rows: present } = await server.pool.query<{ id: string; file_name: string; processing_status: string }>(
    'SELECT id, file_name, processing_status FROM manuals',
  );
  const ingested: { name: string; id: string; pages: number; chunks: number; seconds: number | null }[] = [];
  for (const manual of manuals) {
    const existing = present.filter((row) => row.file_name === `${manual.name}.pdf`);
    const ready = existing.find((row) => row.processing_status === 'ready');
    if (ready && !opts.reingest) {
      ingested.push({ name: manual.name, id: ready.id, pages: manual.pages, chunks: 0, seconds: null });
      continue;
    }
    for (const row of existing)
      await call(server, `/api/db/${server.projectId}/rest/v1/manuals?id=eq.${row.id}`, { method: 'DELETE', token });
    const started = performance.now();
    const id = await uploadManual(server, token, manual, opts);
    for (;;) {
      const { rows } = await server.pool.query<{ processing_status: string; processing_error: string | null }>(
        'SELECT processing_status, processing_error FROM manuals WHERE id = $1',
        [id],
      );
      if (rows[0]?.processing_status === 'failed')
        throw new Error(`${manual.name}: ingestion failed: ${rows[0].processing_error}`);
      if (rows[0]?.processing_status === 'ready') break;
      if (seconds(started) > 900) throw new Error(`${manual.name}: not ready after 900 s`);
      await sleep(200);
    }
    ingested.push({ name: manual.name, id, pages: manual.pages, chunks: 0, seconds: seconds(started) });
    opts.log(`${manual.name}: ${manual.pages} pages ingested in ${seconds(started).toFixed(1)} s`);
  }
  for (const m of ingested)
    m.chunks = (
      await server.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM manual_content WHERE manual_id = $1', [
        m.id,
      ])
    ).rows[0]!.n;
  return ingested;
}

/**
 * Waits until the server's background indexer has embedded every chunk and the entries it lists
 * (semantic reranking needs them; a kept database from before migration 029 has its entries
 * embedded now); seconds waited.
 */
export async function waitForEmbeddings(server: Server, log: Log): Promise<number> {
  const started = performance.now();
  let reported = 0;
  for (;;) {
    const { rows } = await server.pool.query<{ left: number; total: number }>(
      `SELECT count(*) FILTER (WHERE embedding IS NULL OR (entry_embeddings IS NULL AND embedding <> '\\x'))::int AS left,
         count(*)::int AS total FROM manual_content`,
    );
    if (rows[0]!.left === 0) break;
    if (seconds(started) - reported >= 15) {
      reported = seconds(started);
      log(`embedding: ${rows[0]!.total - rows[0]!.left} of ${rows[0]!.total} chunks`);
    }
    if (seconds(started) > 3600) throw new Error('chunks still without embeddings after 3600 s');
    await sleep(500);
  }
  const waited = seconds(started);
  if (waited > 1) log(`embeddings complete after ${waited.toFixed(0)} s more`);
  return waited;
}

/** One question through the chat endpoint: its sources, its text, and when the first byte and the first text came. */
export async function ask(server: Server, token: string, question: string) {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/app/${server.projectId}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question }),
  });
  if (res.status !== 200) throw new Error(`chat: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  let firstByteMs: number | undefined;
  let firstTextMs: number | undefined;
  let sources: { manualId: string; title: string; page: number | null }[] = [];
  let text = '';
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    firstByteMs ??= performance.now() - started;
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('data: {')) continue;
      const part = JSON.parse(line.slice(6)) as { type: string; data?: unknown; delta?: string; errorText?: string };
      if (part.type === 'data-sources') sources = part.data as typeof sources;
      if (part.type === 'text-delta') {
        firstTextMs ??= performance.now() - started;
        text += part.delta ?? '';
      }
      if (part.type === 'error') throw new Error(`chat stream error: ${part.errorText}`);
    }
  }
  return { sources, text, firstByteMs: firstByteMs ?? NaN, firstTextMs: firstTextMs ?? NaN };
}
