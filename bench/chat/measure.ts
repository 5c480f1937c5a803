/** Timing helpers of bench/chat: time to the first text of a streamed answer, on loopback. */
import { performance } from 'node:perf_hooks';

/**
 * POSTs `body` and reads the SSE answer: milliseconds from the request to the first text
 * (`isText` on a `data:` line), and to the end of the stream. The body is read to the end so
 * the server finishes its work (saving the exchange) before the next request.
 */
export async function timeFirstText(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  isText: (data: string) => boolean,
) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`${url}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
  let firstText: number | undefined;
  let buffer = '';
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const data = line.slice(6);
      if (firstText === undefined && isText(data)) firstText = performance.now() - started;
      if (data.includes('"error"')) text += data;
    }
  }
  if (firstText === undefined) throw new Error(`${url}: no text in the answer ${text.slice(0, 300)}`);
  return { firstTextMs: firstText, totalMs: performance.now() - started };
}

export const isAppText = (data: string) => data.startsWith('{"type":"text-delta"');
/** An OpenAI chat.completion.chunk with non-empty content. */
export const isPeerText = (data: string) => /"delta":\{[^}]*"content":"[^"]/.test(data);

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function summarise(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? NaN),
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  };
}
