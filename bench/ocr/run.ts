/**
 * bench/ocr: photo to answer on bench/ocr/photos (make-photos.ts), through the real chat.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ocr/run.ts
 *
 * A fresh database (dropped at the end) with one small manual per unit of photo-set.ts, the real
 * app (buildApp(), no AI model, real OCR in its worker pool) on loopback, and one technician who
 * uploads each photo and asks "What is wrong with this unit?", one at a time. Measures:
 *   identifiers  expected model/part/serial/error found in the data-photo part (OCR-tolerant compare)
 *   manual       the photo's manual identified, for photos whose unit is in the library (target >= 90%)
 *   first byte   ms from sending the chat request to the first byte of its answer (target p95 < 4 s)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrate } from '../../apps/server/src/db/migrate.js';
import { canonical } from '../../apps/server/src/product/chat/identifiers.js';
import { BENCH_MANUALS } from './photo-set.js';

const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
if (!serverUrl) throw new Error('Set TEST_DATABASE_URL (a PostgreSQL server the bench may create a database on)');
const cleanups: (() => Promise<unknown>)[] = [];
const expected = JSON.parse(await readFile(new URL('./photos/expected.json', import.meta.url), 'utf8')) as {
  file: string; expected: { kind: string; value: string }[]; manual: string | null;
}[];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

try {
  const name = `fa_bench_ocr_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  cleanups.push(async () => (await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`), admin.end()));
  cleanups.unshift(() => pool.end());
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 5 });
  pool.on('error', () => undefined);
  await migrate(pool);
  for (const [i, manual] of BENCH_MANUALS.entries()) {
    await pool.query("INSERT INTO manuals (id, title, file_url, file_name, processing_status) VALUES ($1, $2, $3, $4, 'ready')", [`m${i}`, manual.title, `https://bench.invalid/files/m${i}.pdf`, `m${i}.pdf`]);
    await pool.query('INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, 0, 1)', [`m${i}_0`, `m${i}`, manual.text]);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldassist-bench-ocr-'));
  cleanups.unshift(() => rm(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', DATABASE_URL: url.toString(), DATA_DIR: dataDir, WEB_DIST: '/nonexistent' });
  const app = await buildApp({ config: { ...config, serviceKey: `blnk_sk_bench_${randomBytes(24).toString('hex')}`, authSecret: randomBytes(48).toString('base64url') }, pool });
  cleanups.unshift(() => app.close());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const signUp = await fetch(`${base}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `bench-${name}@example.com`, password: 'bench-password-0123', projectId: config.projectId }) });
  const { access_token: token } = (await signUp.json()) as { access_token: string }; // the first account: admin
  let headers = { authorization: `Bearer ${token}` };

  let found = 0, wanted = 0, rightManual = 0, inLibrary = 0, wrongForMissing = 0;
  const firstByte: number[] = [];
  const misses: string[] = [];
  for (const [i, photo] of expected.entries()) {
    // The chat allows a user 20 questions a minute: a new technician every 15 photos.
    if (i > 0 && i % 15 === 0) {
      const email = `bench-${name}-${i}@example.com`;
      await pool.query('INSERT INTO user_roles (id, user_id, role, assigned_by) VALUES ($1, $2, $3, $4)', [`role_${i}`, email, 'technician', 'bench']);
      const next = await fetch(`${base}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'bench-password-0123', projectId: config.projectId }) });
      headers = { authorization: `Bearer ${((await next.json()) as { access_token: string }).access_token}` };
    }
    const form = new FormData();
    form.append('path', `chat-images/bench-${i}.jpg`);
    form.append('file', new Blob([new Uint8Array(await readFile(new URL(`./photos/${photo.file}`, import.meta.url)))], { type: 'image/jpeg' }), photo.file);
    const uploaded = await fetch(`${base}/api/storage/${config.projectId}/upload`, { method: 'POST', headers, body: form });
    const { publicUrl } = (await uploaded.json()) as { publicUrl: string };
    const started = performance.now();
    const response = await fetch(`${base}/api/app/${config.projectId}/chat`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ question: 'What is wrong with this unit?', imageUrl: publicUrl }) });
    if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
    const reader = response.body!.getReader();
    let body = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (body === '') firstByte.push(performance.now() - started);
      body += new TextDecoder().decode(chunk.value);
    }
    const part = body.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as { type: string; data?: unknown }).find((p) => p.type === 'data-photo');
    const reading = part?.data as { text: string; identifiers: { kind: string; value: string }[]; manual: { title: string } | null } | undefined;
    const read = new Set((reading?.identifiers ?? []).map((identifier) => canonical(identifier.value)));
    for (const identifier of photo.expected) {
      wanted++;
      if (read.has(canonical(identifier.value))) found++;
      else misses.push(`${photo.file}: ${identifier.kind} ${identifier.value} not found in ${JSON.stringify(reading?.text ?? '')}`);
    }
    if (photo.manual) {
      inLibrary++;
      if (reading?.manual?.title === photo.manual) rightManual++;
      else misses.push(`${photo.file}: manual ${reading?.manual?.title ?? 'none'} instead of ${photo.manual}`);
    } else if (reading?.manual) wrongForMissing++;
  }
  console.log(`bench/ocr on ${cpus().length} cores (${cpus()[0]?.model}), ${expected.length} photos, no AI model`);
  console.log(`identifiers recognised: ${found}/${wanted} = ${((100 * found) / wanted).toFixed(1)}% (target >= 85%)`);
  console.log(`right manual identified: ${rightManual}/${inLibrary} = ${((100 * rightManual) / inLibrary).toFixed(1)}% (target >= 90%); a manual named for a unit not in the library: ${wrongForMissing}`);
  console.log(`photo to first answer byte: p50 ${Math.round(percentile(firstByte, 50))} ms, p95 ${Math.round(percentile(firstByte, 95))} ms, max ${Math.round(Math.max(...firstByte))} ms (target p95 < 4000 ms; the first includes starting the OCR worker)`);
  for (const miss of misses) console.log(`  miss: ${miss}`);
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
