// `client.realtime` (PLATFORM_API.md section 8): channels over one WebSocket, with acknowledged
// publishes, presence, and catch-up of missed messages after a reconnect.
import { FieldAssistRealtimeError } from '../errors.js';
import type { HttpCore } from '../http.js';
import type { PresenceUser, RealtimeMessage, ServerFrame } from '@fieldassist/client/realtime-frames';
import { createConnection, realtimeError } from './connection.js';
import { ACK_TIMEOUT_MS } from './timing.js';
import type { RealtimeChannel, RealtimeClient, RealtimeState, WebSocketFactory } from './types.js';

export interface RealtimeOptions {
  http: HttpCore;
  projectId: string;
  getAccessToken: () => Promise<string | null | undefined>;
  /** Default: the browser's WebSocket. */
  createSocket?: WebSocketFactory;
  random?: () => number;
}

interface Joined {
  onMessage: (message: RealtimeMessage) => void;
  presence: Set<(users: PresenceUser[]) => void>;
  metadata?: Record<string, unknown>;
  /** The newest id received: a rejoin asks for what came after it. */
  lastId?: string;
}

interface Pending {
  resolve: (value: string) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function createRealtime(options: RealtimeOptions): RealtimeClient {
  const joined = new Map<string, Joined>();
  // Acknowledgements carry only the channel: subscribes wait one per channel, publishes in order.
  const subscribing = new Map<string, Pending>();
  const publishing = new Map<string, Pending[]>();
  const stateListeners = new Set<(state: RealtimeState) => void>();
  let state: RealtimeState = 'disconnected';
  const setState = (next: RealtimeState) => {
    if (next === state) return;
    state = next;
    stateListeners.forEach((listener) => listener(next));
  };

  const url = `${options.http.baseUrl.replace(/^http/, 'ws')}/?project_id=${encodeURIComponent(options.projectId)}`;
  const connection = createConnection({
    url,
    createSocket:
      options.createSocket ?? ((socketUrl) => new WebSocket(socketUrl) as unknown as ReturnType<WebSocketFactory>),
    getAccessToken: options.getAccessToken,
    random: options.random,
    wantsConnection: () => joined.size > 0,
    onState: setState,
    onReady: () => {
      for (const [channel, entry] of joined) sendSubscribe(channel, entry);
    },
    onLost: (error) => {
      for (const pending of [...subscribing.values(), ...[...publishing.values()].flat()]) settle(pending, error);
      subscribing.clear();
      publishing.clear();
    },
    onFrame,
  });

  function settle(pending: Pending, error?: Error, value = '') {
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve(value);
  }

  function waitForAck(register: (pending: Pending) => void, timeoutMessage: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const pending: Pending = {
        resolve,
        reject,
        timer: setTimeout(() => reject(realtimeError(timeoutMessage, 'TIMEOUT')), ACK_TIMEOUT_MS),
      };
      register(pending);
    });
  }

  function sendSubscribe(channel: string, entry: Joined) {
    connection.send({ type: 'subscribe', payload: { channel, metadata: entry.metadata, lastId: entry.lastId } });
  }

  function onFrame(frame: ServerFrame) {
    if (!('channel' in frame.payload) || !frame.payload.channel) return;
    const { channel } = frame.payload;
    if (frame.type === 'subscribed') {
      const pending = subscribing.get(channel);
      subscribing.delete(channel);
      if (pending) settle(pending);
      setState('subscribed');
    } else if (frame.type === 'message') {
      const entry = joined.get(channel);
      if (!entry) return;
      entry.lastId = frame.payload.id;
      entry.onMessage(frame.payload);
    } else if (frame.type === 'presence') {
      const { users } = frame.payload.data;
      joined.get(channel)?.presence.forEach((listener) => listener(users));
    } else if (frame.type === 'published') {
      const pending = publishing.get(channel)?.shift();
      if (pending) settle(pending, undefined, frame.payload.messageId);
    } else if (frame.type === 'error') {
      const error = realtimeError(frame.payload.error, frame.payload.code);
      const pending = subscribing.get(channel) ?? publishing.get(channel)?.shift();
      subscribing.delete(channel);
      if (pending) settle(pending, error);
    }
  }

  async function restGet<T>(route: string, query: Record<string, string>, failure: string): Promise<T> {
    try {
      return (
        await options.http.request<T>({
          method: 'GET',
          path: `/realtime/${encodeURIComponent(options.projectId)}/${route}`,
          query,
        })
      ).data;
    } catch (error) {
      const cause = error as { message?: string; code?: string; status?: number };
      throw new FieldAssistRealtimeError({
        message: `${failure}: ${cause.message}`,
        code: cause.code ?? 'REALTIME_ERROR',
        status: cause.status ?? 0,
        details: error,
      });
    }
  }

  async function publish(
    channel: string,
    type: string,
    data: unknown,
    metadata?: Record<string, unknown>,
  ): Promise<string> {
    await connection.connect();
    const ack = waitForAck(
      (pending) => publishing.set(channel, [...(publishing.get(channel) ?? []), pending]),
      'Message send timeout - no response from server',
    );
    connection.send({ type: 'publish', payload: { channel, type, data, metadata } });
    return ack;
  }

  return {
    get state() {
      return state;
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    async subscribe(channel, onMessage, subscribeOptions = {}) {
      const entry: Joined = { onMessage, presence: new Set(), metadata: subscribeOptions.metadata };
      joined.set(channel, entry);
      try {
        await connection.connect();
        const ack = waitForAck(
          (pending) => subscribing.set(channel, pending),
          'Subscription timeout - no acknowledgment from server',
        );
        sendSubscribe(channel, entry);
        await ack;
      } catch (error) {
        joined.delete(channel);
        throw error;
      }
      const handle: RealtimeChannel = {
        name: channel,
        publish: (type, data, opts) => publish(channel, type, data, opts?.metadata),
        onPresence(listener) {
          entry.presence.add(listener);
          return () => entry.presence.delete(listener);
        },
        async unsubscribe() {
          if (joined.get(channel) !== entry) return;
          joined.delete(channel);
          connection.send({ type: 'unsubscribe', payload: { channel } });
          if (joined.size === 0) connection.close(); // leaving the last channel closes the socket
        },
      };
      return handle;
    },
    async presence(channel) {
      const data = await restGet<{ users?: PresenceUser[] }>(
        'presence',
        { channel },
        `Failed to get presence for channel ${channel}`,
      );
      return data.users ?? [];
    },
    async history(channel, { limit = 50, after, before } = {}) {
      const query = { channel, limit: String(limit), start: after ?? '-', end: before ?? '+' };
      const data = await restGet<{ messages?: RealtimeMessage[] }>(
        'messages',
        query,
        `Failed to get messages for channel ${channel}`,
      );
      return data.messages ?? [];
    },
    close() {
      joined.clear();
      connection.close();
    },
  };
}
