import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { type Frame, parseFrame, type ServerFrame, ZFrame } from '@fieldassist/client/realtime-frames';
import type { WebSocket } from 'ws';
import type { Caller } from '../auth/caller.js';
import { ApiError } from '../errors.js';
import { authorizeChannel } from './channels.js';
import { compareIds, type HubEvent, type RealtimeHub } from './hub.js';

export interface SocketDeps {
  hub: RealtimeHub;
  /** The caller an access token (or the service key) names, as for HTTP. */
  authenticate: (token: string) => Promise<Caller>;
}

/** Clients ping every 25 s (PLATFORM_API.md 8.4); a socket silent for this long is gone. */
const IDLE_MS = 75_000;
/** A client that reads slower than we write is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const CATCH_UP_LIMIT = 500;

/**
 * One WebSocket connection speaking PLATFORM_API.md section 8: subscribe, unsubscribe, publish,
 * ping, and (ours) auth. The caller comes from `?access_token=` or a first `auth` frame; a
 * subscribe with `lastId` first receives the messages it missed, then live ones, with no gap.
 */
export function serveSocket(socket: WebSocket, transport: Duplex, accessToken: string | undefined, deps: SocketDeps) {
  const connectionId = randomBytes(8).toString('hex');
  let caller: Caller = { kind: 'anonymous' };
  const ready = accessToken ? authenticate(accessToken) : Promise.resolve();
  const subscriptions = new Map<string, () => Promise<void>>();
  let idle = setTimeout(() => socket.terminate(), IDLE_MS);

  // The frames sent in one turn of the event loop leave in one write (uncorked in its check
  // phase): the messages of all the reads handled in that turn, from clients or from Redis,
  // cost one system call per socket, not one per message.
  let corked = false;
  const uncork = () => {
    corked = false;
    transport.uncork();
  };
  function send(frame: ServerFrame) {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES)
      return socket.close(1013, 'Too slow: messages are arriving faster than they are read');
    if (!corked) {
      corked = true;
      transport.cork();
      setImmediate(uncork);
    }
    socket.send(JSON.stringify(frame));
  }
  const refuse = (error: unknown, channel?: unknown) => {
    const message = error instanceof ApiError ? error.message : 'The realtime server could not do that; try again';
    const code = error instanceof ApiError ? error.code : 'INTERNAL_ERROR';
    send({ type: 'error', payload: { error: message, code, ...(typeof channel === 'string' ? { channel } : {}) } });
  };

  async function authenticate(token: string) {
    caller = await deps.authenticate(token);
    if (caller.kind === 'invalid') throw caller.error;
  }
  const memberId = () => (caller.kind === 'user' ? caller.userId : 'service');

  async function subscribe(payload: Record<string, unknown>) {
    const channel = authorizeChannel(caller, payload.channel);
    if (subscriptions.has(channel)) return send({ type: 'subscribed', payload: { channel } });
    const lastId = typeof payload.lastId === 'string' ? payload.lastId : undefined;
    // Live messages wait while the missed ones are sent, then skip what the catch-up held.
    let held: HubEvent[] | undefined = lastId ? [] : undefined;
    let sentUpTo = lastId;
    const deliver = (event: HubEvent) => {
      if (held) return void held.push(event);
      if (event.kind === 'presence')
        return send({ type: 'presence', payload: { channel, data: { users: event.users } } });
      if (sentUpTo && compareIds(event.message.id, sentUpTo) <= 0) return;
      send({ type: 'message', payload: event.message });
    };
    subscriptions.set(channel, await deps.hub.listen(channel, deliver));
    const metadata = isRecord(payload.metadata) ? payload.metadata : undefined;
    await deps.hub.join(channel, connectionId, { userId: memberId(), metadata });
    send({ type: 'subscribed', payload: { channel } });
    if (lastId) {
      const { messages } = await deps.hub.history(channel, { after: lastId, limit: CATCH_UP_LIMIT });
      for (const message of messages) send({ type: 'message', payload: message });
      sentUpTo = messages.at(-1)?.id ?? lastId;
      const waiting = held ?? [];
      held = undefined;
      waiting.forEach(deliver);
    }
  }

  async function unsubscribe(payload: Record<string, unknown>) {
    const channel = String(payload.channel);
    const stop = subscriptions.get(channel);
    subscriptions.delete(channel);
    if (stop) await Promise.all([stop(), deps.hub.leave(channel, connectionId)]);
    send({ type: 'unsubscribed', payload: { channel } });
  }

  async function publish(payload: Record<string, unknown>) {
    const channel = authorizeChannel(caller, payload.channel);
    if (typeof payload.type !== 'string' || payload.type.length === 0 || payload.type.length > 128) {
      throw new ApiError('INVALID_PARAMETER', 'type must be a string of 1 to 128 characters');
    }
    const metadata = isRecord(payload.metadata) ? payload.metadata : undefined;
    const message = await deps.hub.publish({
      channel,
      type: payload.type,
      data: payload.data ?? null,
      userId: memberId(),
      metadata,
    });
    send({ type: 'published', payload: { channel, messageId: message.id } });
  }

  async function ping() {
    await Promise.all(
      [...subscriptions.keys()].map((channel) => deps.hub.join(channel, connectionId, { userId: memberId() })),
    );
    send({ type: 'pong', payload: {} });
  }

  const handlers: Record<string, (payload: Record<string, unknown>) => Promise<unknown>> = {
    auth: (payload) =>
      authenticate(String(payload.token ?? '')).then(() =>
        send({ type: 'authenticated', payload: { userId: memberId() } }),
      ),
    subscribe,
    unsubscribe,
    publish,
    ping,
  };

  // Frames are handled one after another, in the order they came.
  let queue: Promise<unknown> = ready.catch((error: unknown) => refuse(error));
  socket.on('message', (raw) => {
    clearTimeout(idle);
    idle = setTimeout(() => socket.terminate(), IDLE_MS);
    const frame: Frame | undefined = parseFrame(ZFrame, raw.toString());
    queue = queue.then(async () => {
      if (!frame) return refuse(new ApiError('INVALID_PARAMETER', 'Frames are JSON objects {"type", "payload"}'));
      const handler = handlers[frame.type];
      if (!handler)
        return refuse(new ApiError('INVALID_PARAMETER', `Unknown message type '${frame.type.slice(0, 32)}'`));
      await handler(frame.payload).catch((error: unknown) => refuse(error, frame.payload.channel));
    });
  });
  socket.on('close', () => {
    clearTimeout(idle);
    // After the frames already queued, so a subscribe in flight is undone too.
    void queue
      .then(() =>
        Promise.all(
          [...subscriptions].map(([channel, stop]) => Promise.all([stop(), deps.hub.leave(channel, connectionId)])),
        ),
      )
      .catch(() => undefined);
  });
  send({ type: 'connected', payload: { socketId: connectionId } });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
