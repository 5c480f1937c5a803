import type { Redis } from 'ioredis';
import {
  HISTORY_PER_CHANNEL,
  type HubEvent,
  mergePresence,
  PRESENCE_TTL_MS,
  type PresenceUser,
  type RealtimeHub,
  type RealtimeMessage,
} from './hub.js';

export interface RedisHubOptions {
  /** The server's command connection (shared, closed by its owner); pub/sub gets a duplicate of it. */
  redis: Redis;
  /** Keys and pub/sub channels start with this, so projects can share one Redis. */
  prefix: string;
}

// Appends to the channel's stream (Redis makes the `<ms>-<seq>` id) and announces it in one
// step, so every instance sees a channel's messages in id order.
const PUBLISH_SCRIPT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[2])
redis.call('PUBLISH', KEYS[2], id .. ' ' .. ARGV[2])
return id`;

type StoredMessage = Omit<RealtimeMessage, 'id' | 'timestamp'>;
const fromStream = (id: string, json: string): RealtimeMessage => ({
  ...(JSON.parse(json) as StoredMessage),
  id,
  timestamp: Number(id.split('-')[0]),
});

/**
 * Channels shared by every server instance on one Redis: history in a capped stream per
 * channel, live delivery through pub/sub, presence in a hash per channel whose entries
 * expire when their instance stops refreshing them.
 */
export function createRedisHub({ redis: commands, prefix }: RedisHubOptions): RealtimeHub {
  const subscriber = commands.duplicate();
  // Connection errors are the same as the command connection's, which its owner logs.
  subscriber.on('error', () => undefined);
  const key = {
    stream: (channel: string) => `${prefix}stream:${channel}`,
    presence: (channel: string) => `${prefix}presence:${channel}`,
    messages: (channel: string) => `${prefix}msg:${channel}`,
    presenceEvents: (channel: string) => `${prefix}pres:${channel}`,
  };
  const listeners = new Map<string, Set<(event: HubEvent) => void>>();

  subscriber.on('message', (topic: string, body: string) => {
    if (topic.startsWith(`${prefix}msg:`)) {
      const channel = topic.slice(`${prefix}msg:`.length);
      const space = body.indexOf(' ');
      const event: HubEvent = { kind: 'message', message: fromStream(body.slice(0, space), body.slice(space + 1)) };
      listeners.get(channel)?.forEach((listener) => listener(event));
    } else if (topic.startsWith(`${prefix}pres:`)) {
      const channel = topic.slice(`${prefix}pres:`.length);
      void presence(channel).then((users) =>
        listeners.get(channel)?.forEach((listener) => listener({ kind: 'presence', channel, users })),
      );
    }
  });

  async function presence(channel: string): Promise<PresenceUser[]> {
    const entries = Object.values(await commands.hgetall(key.presence(channel))).map(
      (json) => JSON.parse(json) as PresenceUser,
    );
    return mergePresence(entries, Date.now());
  }

  return {
    async publish(input) {
      const id = (await commands.eval(
        PUBLISH_SCRIPT,
        2,
        key.stream(input.channel),
        key.messages(input.channel),
        HISTORY_PER_CHANNEL,
        JSON.stringify(input),
      )) as string;
      return { ...input, id, timestamp: Number(id.split('-')[0]) };
    },
    async listen(channel, listener) {
      let set = listeners.get(channel);
      if (!set) {
        listeners.set(channel, (set = new Set()));
        await subscriber.subscribe(key.messages(channel), key.presenceEvents(channel));
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
        if (set.size > 0 || listeners.get(channel) !== set) return;
        listeners.delete(channel);
        await subscriber.unsubscribe(key.messages(channel), key.presenceEvents(channel));
      };
    },
    async history(channel, { after, before, limit }) {
      // Newest first within the exclusive bounds, one more than asked to know if there is more.
      const entries = await commands.xrevrange(
        key.stream(channel),
        before ? `(${before}` : '+',
        after ? `(${after}` : '-',
        'COUNT',
        limit + 1,
      );
      const messages = entries
        .slice(0, limit)
        .map(([id, fields]) => fromStream(id, fields[1] ?? '{}'))
        .reverse();
      return { messages, hasMore: entries.length > limit };
    },
    async join(channel, connectionId, { userId, metadata }) {
      const now = Date.now();
      const existing = await commands.hget(key.presence(channel), connectionId);
      const before = existing ? (JSON.parse(existing) as PresenceUser) : undefined;
      const member: PresenceUser = {
        userId,
        metadata: metadata ?? before?.metadata,
        joinedAt: before?.joinedAt ?? now,
        lastSeen: now,
      };
      await commands
        .multi()
        .hset(key.presence(channel), connectionId, JSON.stringify(member))
        .pexpire(key.presence(channel), PRESENCE_TTL_MS * 2)
        .exec();
      if (!existing) await commands.publish(key.presenceEvents(channel), '');
    },
    async leave(channel, connectionId) {
      if (await commands.hdel(key.presence(channel), connectionId))
        await commands.publish(key.presenceEvents(channel), '');
    },
    presence,
    async close() {
      await subscriber.quit().catch(() => undefined);
    },
  };
}
