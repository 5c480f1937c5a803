import {
  compareIds,
  HISTORY_PER_CHANNEL,
  type HubEvent,
  mergePresence,
  type PresenceUser,
  type RealtimeHub,
  type RealtimeMessage,
} from './hub.js';

interface Channel {
  messages: RealtimeMessage[];
  listeners: Set<(event: HubEvent) => void>;
  members: Map<string, PresenceUser>;
  lastId: { ms: number; seq: number };
}

/** Channels held in this process: the default, for a single server instance. */
export function createMemoryHub(): RealtimeHub {
  const channels = new Map<string, Channel>();
  const channelOf = (name: string): Channel => {
    let channel = channels.get(name);
    if (!channel)
      channels.set(
        name,
        (channel = { messages: [], listeners: new Set(), members: new Map(), lastId: { ms: 0, seq: -1 } }),
      );
    return channel;
  };
  // A channel nobody listens to and with no history left is forgotten.
  const forgetIfIdle = (name: string, channel: Channel) => {
    if (channel.listeners.size === 0 && channel.members.size === 0 && channel.messages.length === 0)
      channels.delete(name);
  };
  const emit = (channel: Channel, event: HubEvent) => {
    for (const listener of channel.listeners) listener(event);
  };
  const presenceEvent = (name: string, channel: Channel): HubEvent => ({
    kind: 'presence',
    channel: name,
    users: mergePresence(channel.members.values(), Date.now()),
  });

  return {
    async publish(input) {
      const channel = channelOf(input.channel);
      const now = Date.now();
      // Ids never go backwards, even if the clock does.
      const ms = Math.max(now, channel.lastId.ms);
      channel.lastId = { ms, seq: ms === channel.lastId.ms ? channel.lastId.seq + 1 : 0 };
      const message: RealtimeMessage = { ...input, id: `${ms}-${channel.lastId.seq}`, timestamp: now };
      channel.messages.push(message);
      if (channel.messages.length > HISTORY_PER_CHANNEL)
        channel.messages.splice(0, channel.messages.length - HISTORY_PER_CHANNEL);
      emit(channel, { kind: 'message', message });
      return message;
    },
    async listen(name, listener) {
      const channel = channelOf(name);
      channel.listeners.add(listener);
      return async () => {
        channel.listeners.delete(listener);
        forgetIfIdle(name, channel);
      };
    },
    async history(name, { after, before, limit }) {
      const inRange = (channels.get(name)?.messages ?? []).filter(
        (m) =>
          (after === undefined || compareIds(m.id, after) > 0) &&
          (before === undefined || compareIds(m.id, before) < 0),
      );
      return { messages: inRange.slice(-limit), hasMore: inRange.length > limit };
    },
    async join(name, connectionId, { userId, metadata }) {
      const channel = channelOf(name);
      const now = Date.now();
      const existing = channel.members.get(connectionId);
      channel.members.set(connectionId, {
        userId,
        metadata: metadata ?? existing?.metadata,
        joinedAt: existing?.joinedAt ?? now,
        lastSeen: now,
      });
      if (!existing) emit(channel, presenceEvent(name, channel));
    },
    async leave(name, connectionId) {
      const channel = channels.get(name);
      if (!channel?.members.delete(connectionId)) return;
      emit(channel, presenceEvent(name, channel));
      forgetIfIdle(name, channel);
    },
    async presence(name) {
      return mergePresence(channels.get(name)?.members.values() ?? [], Date.now());
    },
    async close() {
      channels.clear();
    },
  };
}
