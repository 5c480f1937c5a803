/**
 * The load: N WebSocket clients in C channels, each publishing R messages a second for D
 * seconds. Every message carries its sender and sequence number, so each receiver counts what
 * it got once, twice or never. Prints one JSON line of results. Loopback only.
 */
import { WebSocket } from 'ws';

const [url, tokensJson, clients, channels, rate, duration] = process.argv.slice(2);
const tokens = JSON.parse(tokensJson!) as string[];
const N = Number(clients),
  C = Number(channels),
  R = Number(rate),
  D = Number(duration);

interface Client {
  socket: WebSocket;
  channel: string;
  seen: Map<number, Set<number>>;
}
const latencies: number[] = [];
let duplicates = 0;
let acked = 0;
let errors = 0;
const publishedPerChannel = new Map<string, number>();

function open(i: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url!, { perMessageDeflate: false });
    const client: Client = { socket, channel: `bench-${i % C}`, seen: new Map() };
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'auth', payload: { token: tokens[i % tokens.length] } })),
    );
    socket.on('error', reject);
    socket.on('message', (raw) => {
      const { type, payload } = JSON.parse(raw.toString()) as { type: string; payload: Record<string, unknown> };
      if (type === 'authenticated')
        socket.send(JSON.stringify({ type: 'subscribe', payload: { channel: client.channel } }));
      else if (type === 'subscribed') resolve(client);
      else if (type === 'published') acked++;
      else if (type === 'error') errors++;
      else if (type === 'message') {
        const { from, n, sentAt } = payload.data as { from: number; n: number; sentAt: number };
        latencies.push(Date.now() - sentAt);
        let set = client.seen.get(from);
        if (!set) client.seen.set(from, (set = new Set()));
        if (set.has(n)) duplicates++;
        else set.add(n);
      }
    });
  });
}

const all: Client[] = [];
for (let i = 0; i < N; i += 50)
  all.push(...(await Promise.all(Array.from({ length: Math.min(50, N - i) }, (_, k) => open(i + k)))));

const started = Date.now();
let sent = 0;
await new Promise<void>((done) => {
  let tick = 0;
  // Ticks of 10 ms; each client sends every `period` ticks, the clients spread over them, so the
  // load is steady rather than one burst per second.
  const period = Math.max(1, Math.round(100 / R));
  const timer = setInterval(() => {
    tick++;
    all.forEach((client, i) => {
      if ((tick + i) % period !== 0) return;
      client.socket.send(
        JSON.stringify({
          type: 'publish',
          payload: { channel: client.channel, type: 'load', data: { from: i, n: tick, sentAt: Date.now() } },
        }),
      );
      publishedPerChannel.set(client.channel, (publishedPerChannel.get(client.channel) ?? 0) + 1);
      sent++;
    });
    if (Date.now() - started >= D * 1000) {
      clearInterval(timer);
      done();
    }
  }, 10);
});
const seconds = (Date.now() - started) / 1000;
await new Promise((r) => setTimeout(r, 3000)); // let the last messages arrive

const members = new Map<string, number>();
for (const c of all) members.set(c.channel, (members.get(c.channel) ?? 0) + 1);
const expected = [...publishedPerChannel].reduce(
  (sum, [channel, count]) => sum + count * (members.get(channel) ?? 0),
  0,
);
const received = all.reduce((sum, c) => sum + [...c.seen.values()].reduce((s, set) => s + set.size, 0), 0);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
all.forEach((c) => c.socket.close());
console.log(
  JSON.stringify({
    sent,
    acked,
    errors,
    expected,
    received,
    lost: expected - received,
    duplicates,
    p50: pct(50),
    p99: pct(99),
    max: latencies.at(-1) ?? NaN,
    seconds,
  }),
);
process.exit(0);
