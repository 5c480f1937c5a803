/**
 * The load generator of bench/extract/run.ts, in a child process so its CPU and event loop stay
 * apart from the server's. On 'start' it sends the request at a fixed overall rate until 'stop',
 * keeps every latency, and answers with exact percentiles (autocannon's own histogram rounds
 * to whole milliseconds, too coarse for a fast GET).
 */
import autocannon from 'autocannon';

export type LoadMessage =
  | { type: 'start'; url: string; path: string; headers: Record<string, string>; connections: number; rate: number }
  | { type: 'stop' };

export interface LatencySummary {
  requests: number;
  non2xx: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  seconds: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

let current:
  { instance: autocannon.Instance; latencies: number[]; non2xx: number; errors: number; started: number } | undefined;

process.on('message', (message: LoadMessage) => {
  if (message.type === 'start') {
    const { url, path, headers, connections, rate } = message;
    // A duration far beyond any window: the parent stops each window itself.
    // overallRate (requests per second over all connections) is left out of bench/types' subset.
    const instance = autocannon({
      url: url + path,
      headers,
      connections,
      duration: 3600,
      overallRate: rate,
    } as autocannon.Options);
    const window = { instance, latencies: [] as number[], non2xx: 0, errors: 0, started: performance.now() };
    instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      window.latencies.push(responseTime);
      if (status < 200 || status >= 300) window.non2xx++;
    });
    instance.on('reqError', () => window.errors++);
    current = window;
    process.send!({ type: 'started' });
    return;
  }
  const window = current;
  if (!window) return void process.send!({ type: 'error', error: 'stop without start' });
  current = undefined;
  window.instance.once('done', () => {
    const sorted = window.latencies.sort((a, b) => a - b);
    const summary: LatencySummary = {
      requests: sorted.length,
      non2xx: window.non2xx,
      errors: window.errors,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? 0,
      mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
      seconds: (performance.now() - window.started) / 1000,
    };
    process.send!({ type: 'summary', summary });
  });
  window.instance.stop();
});
