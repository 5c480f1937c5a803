/**
 * bench/ocr/scanned: a long scanned manual through ingestion, while the API is in use.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/ocr/scanned.ts [--pages 300]
 *
 * Makes a PDF of `pages` scanned pages (images only, the service manual's three pages over and
 * over), uploads and saves it as a technician, and while the real app's ingestion reads it by
 * OCR page by page, asks GET /healthz and a REST list of manuals every 250 ms. Reports the time
 * per scanned page, the progress events, the API's latency meanwhile (p50, p99, max) and the
 * process's resident memory (worker threads included) before and at its peak.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { makeScannedPdf } from '../../apps/server/src/data/ocr/test-support/scanned-pdf.js';
import { SERVICE_MANUAL } from '../../apps/server/src/data/ocr/test-support/service-manual.js';
import { startBenchApp } from './bench-app.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '300' } } });
const pageCount = Number(args.pages);
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

const pages = Array.from({ length: pageCount }, (_, i) => [
  `Page ${i + 1}`,
  ...SERVICE_MANUAL.pages[i % SERVICE_MANUAL.pages.length]!,
]);
const pdf = await makeScannedPdf(pages);
console.log(`scanned PDF: ${pageCount} pages, ${mb(pdf.length)}`);

const bench = await startBenchApp();
try {
  const technician = await bench.signUp(); // the first account: admin, who may upload
  const fileUrl = await bench.upload(technician, `manuals/${Date.now()}_scan.pdf`, pdf, 'application/pdf');
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const latencies: number[] = [];
  let refused = 0;
  const probe = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    const started = performance.now();
    void Promise.all([
      fetch(`${bench.base}/healthz`),
      fetch(`${bench.base}/api/db/${bench.projectId}/rest/v1/manuals?select=id,processing_status`, {
        headers: technician,
      }),
    ]).then(
      (responses) => (responses.every((r) => r.ok) ? latencies.push(performance.now() - started) : refused++),
      () => refused++,
    );
  }, 250);
  const started = performance.now();
  const saved = await fetch(`${bench.base}/api/db/${bench.projectId}/rest/v1/manuals`, {
    method: 'POST',
    headers: { ...technician, 'content-type': 'application/json', prefer: 'return=representation' },
    body: JSON.stringify({
      id: 'manual_scan',
      title: 'Scanned service manual',
      file_url: fileUrl,
      file_name: 'scan.pdf',
      file_size: pdf.length,
      document_type: 'manual',
    }),
  });
  if (!saved.ok) throw new Error(`saving the manual answered ${saved.status}: ${await saved.text()}`);
  let row:
    | { processing_status: string; processing_error: string | null; page_count: number | null; ocr_pages: number[] }
    | undefined;
  for (;;) {
    row = (
      await bench.pool.query(
        'SELECT processing_status, processing_error, page_count, ocr_pages FROM manuals WHERE id = $1',
        ['manual_scan'],
      )
    ).rows[0];
    if (row?.processing_status === 'ready' || row?.processing_status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(probe);
  const history = (await (
    await fetch(`${bench.base}/api/realtime/${bench.projectId}/messages?channel=manuals&limit=1000`, {
      headers: technician,
    })
  ).json()) as { messages: { type: string }[] };
  const {
    rows: [chunks],
  } = await bench.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM manual_content WHERE manual_id = 'manual_scan'",
  );
  console.log(
    `ingestion: ${row!.processing_status}${row!.processing_error ? ` (${row!.processing_error})` : ''}, ${row!.page_count} pages, ${row!.ocr_pages.length} read by OCR, ${chunks!.n} chunks`,
  );
  console.log(`time: ${seconds.toFixed(0)} s, ${(seconds / pageCount).toFixed(2)} s per scanned page`);
  console.log(`progress events: ${history.messages.filter((m) => m.type === 'manual.progress').length}`);
  console.log(
    `API while ingesting (healthz + REST list, every 250 ms): ${latencies.length} answered, ${refused} failed; p50 ${Math.round(percentile(latencies, 50))} ms, p99 ${Math.round(percentile(latencies, 99))} ms, max ${Math.round(Math.max(...latencies))} ms`,
  );
  console.log(`resident memory: ${mb(rssBefore)} before, ${mb(rssPeak)} at the peak (+${mb(rssPeak - rssBefore)})`);
} finally {
  await bench.close();
}
