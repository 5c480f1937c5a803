/**
 * The baseline: a bare `ws` server speaking the same frames as FieldAssist's realtime route
 * (auth, subscribe, publish, ping) with in-memory rooms, and nothing else: no token check, no
 * hub, no history. The same load runs against it and against the app, side by side.
 */
import { WebSocketServer, type WebSocket } from 'ws';

const port = Number(process.argv[2] ?? 0);
const rooms = new Map<string, Set<WebSocket>>();
const seq = new Map<string, number>();
const server = new WebSocketServer({ port, host: '127.0.0.1', perMessageDeflate: false });

server.on('connection', (socket) => {
  const send = (type: string, payload: object) => socket.send(JSON.stringify({ type, payload }));
  const joined = new Set<string>();
  socket.on('message', (raw) => {
    const { type, payload } = JSON.parse(raw.toString()) as { type: string; payload: Record<string, unknown> };
    const channel = String(payload.channel ?? '');
    if (type === 'auth') send('authenticated', { userId: 'baseline' });
    else if (type === 'subscribe') {
      if (!rooms.has(channel)) rooms.set(channel, new Set());
      rooms.get(channel)!.add(socket);
      joined.add(channel);
      send('subscribed', { channel });
    } else if (type === 'publish') {
      const n = (seq.get(channel) ?? 0) + 1;
      seq.set(channel, n);
      const message = JSON.stringify({
        type: 'message',
        payload: { id: `${Date.now()}-${n}`, channel, type: payload.type, data: payload.data, timestamp: Date.now() },
      });
      send('published', { channel, messageId: `${Date.now()}-${n}` });
      for (const peer of rooms.get(channel) ?? []) peer.send(message);
    } else if (type === 'ping') send('pong', {});
  });
  socket.on('close', () => joined.forEach((channel) => rooms.get(channel)?.delete(socket)));
  send('connected', { socketId: 'baseline' });
});
server.on('listening', () => console.log(JSON.stringify({ listening: (server.address() as { port: number }).port })));
