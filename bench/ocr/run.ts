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
import { readFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { canonical } from '../../apps/server/src/product/chat/identifiers.js';
import { startBenchApp } from './bench-app.js';
import { BENCH_MANUALS } from './photo-set.js';

const expected = JSON.parse(await readFile(new URL('./photos/expected.json', import.meta.url), 'utf8')) as {
  file: string;
  expected: { kind: string; value: string }[];
  manual: string | null;
}[];

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

const bench = await startBenchApp();
try {
  const { base, pool, projectId } = bench;
  for (const [i, manual] of BENCH_MANUALS.entries()) {
    await pool.query(
      "INSERT INTO manuals (id, title, file_url, file_name, processing_status) VALUES ($1, $2, $3, $4, 'ready')",
      [`m${i}`, manual.title, `https://bench.invalid/files/m${i}.pdf`, `m${i}.pdf`],
    );
    await pool.query("UPDATE ingestion_jobs SET status = 'done' WHERE manual_id = $1", [`m${i}`]);
    await pool.query(
      'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, 0, 1)',
      [`m${i}_0`, `m${i}`, manual.text],
    );
  }
  let headers = await bench.signUp(); // the first account: admin
  let found = 0,
    wanted = 0,
    rightManual = 0,
    inLibrary = 0,
    wrongForMissing = 0;
  const firstByte: number[] = [];
  const misses: string[] = [];
  for (const [i, photo] of expected.entries()) {
    // The chat allows a user 20 questions a minute: a new technician every 15 photos.
    if (i > 0 && i % 15 === 0) headers = await bench.signUp('technician');
    const publicUrl = await bench.upload(
      headers,
      `chat-images/bench-${i}.jpg`,
      await readFile(new URL(`./photos/${photo.file}`, import.meta.url)),
      'image/jpeg',
    );
    const started = performance.now();
    const response = await fetch(`${base}/api/app/${projectId}/chat`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is wrong with this unit?', imageUrl: publicUrl }),
    });
    if (response.status !== 200) throw new Error(`chat answered ${response.status}: ${await response.text()}`);
    const reader = response.body!.getReader();
    let body = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (body === '') firstByte.push(performance.now() - started);
      body += new TextDecoder().decode(chunk.value);
    }
    const part = body
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; data?: unknown })
      .find((p) => p.type === 'data-photo');
    const reading = part?.data as
      { text: string; identifiers: { kind: string; value: string }[]; manual: { title: string } | null } | undefined;
    const read = new Set((reading?.identifiers ?? []).map((identifier) => canonical(identifier.value)));
    for (const identifier of photo.expected) {
      wanted++;
      if (read.has(canonical(identifier.value))) found++;
      else
        misses.push(
          `${photo.file}: ${identifier.kind} ${identifier.value} not found in ${JSON.stringify(reading?.text ?? '')}`,
        );
    }
    if (photo.manual) {
      inLibrary++;
      if (reading?.manual?.title === photo.manual) rightManual++;
      else misses.push(`${photo.file}: manual ${reading?.manual?.title ?? 'none'} instead of ${photo.manual}`);
    } else if (reading?.manual) wrongForMissing++;
  }
  console.log(`bench/ocr on ${cpus().length} cores (${cpus()[0]?.model}), ${expected.length} photos, no AI model`);
  console.log(`identifiers recognised: ${found}/${wanted} = ${((100 * found) / wanted).toFixed(1)}% (target >= 85%)`);
  console.log(
    `right manual identified: ${rightManual}/${inLibrary} = ${((100 * rightManual) / inLibrary).toFixed(1)}% (target >= 90%); a manual named for a unit not in the library: ${wrongForMissing}`,
  );
  console.log(
    `photo to first answer byte: p50 ${Math.round(percentile(firstByte, 50))} ms, p95 ${Math.round(percentile(firstByte, 95))} ms, max ${Math.round(Math.max(...firstByte))} ms (target p95 < 4000 ms; the first includes starting the OCR worker)`,
  );
  for (const miss of misses) console.log(`  miss: ${miss}`);
} finally {
  await bench.close();
}
