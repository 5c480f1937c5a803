// The one interface every realtime driver implements (memory-hub.ts, redis-hub.ts). The socket
// and REST code talk to it; nothing else knows whether messages cross server instances.
import type { PresenceUser, RealtimeMessage } from '@fieldassist/client/realtime-frames';

export type { PresenceUser, RealtimeMessage };

export type HubEvent =
  { kind: 'message'; message: RealtimeMessage } | { kind: 'presence'; channel: string; users: PresenceUser[] };

export interface HistoryQuery {
  /** Exclusive lower bound: messages after this id. */
  after?: string;
  /** Exclusive upper bound: messages before this id. */
  before?: string;
  /** The most recent `limit` messages within the bounds, oldest first. */
  limit: number;
}

export interface RealtimeHub {
  publish(message: Omit<RealtimeMessage, 'id' | 'timestamp'>): Promise<RealtimeMessage>;
  /** Delivers the channel's messages and presence changes to `listener` until the returned function is called. */
  listen(channel: string, listener: (event: HubEvent) => void): Promise<() => Promise<void>>;
  history(channel: string, query: HistoryQuery): Promise<{ messages: RealtimeMessage[]; hasMore: boolean }>;
  /** Adds or refreshes one connection's membership of a channel (its lastSeen moves on; metadata kept unless given). */
  join(
    channel: string,
    connectionId: string,
    member: { userId: string; metadata?: Record<string, unknown> },
  ): Promise<void>;
  leave(channel: string, connectionId: string): Promise<void>;
  presence(channel: string): Promise<PresenceUser[]>;
  close(): Promise<void>;
}

/** Messages kept per channel for history and catch-up after a reconnect. */
export const HISTORY_PER_CHANNEL = 1000;
/** A member not seen for this long (its server died without saying goodbye) is gone. */
export const PRESENCE_TTL_MS = 60_000;

/** Orders ids of the `<ms>-<seq>` form; a malformed id sorts as 0-0. */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/** One presence entry per user: several tabs of one user count once, with the earliest join. */
export function mergePresence(entries: Iterable<PresenceUser>, now: number): PresenceUser[] {
  const byUser = new Map<string, PresenceUser>();
  for (const entry of entries) {
    if (now - entry.lastSeen > PRESENCE_TTL_MS) continue;
    const seen = byUser.get(entry.userId);
    if (!seen) byUser.set(entry.userId, { ...entry });
    else
      byUser.set(entry.userId, {
        ...seen,
        joinedAt: Math.min(seen.joinedAt, entry.joinedAt),
        lastSeen: Math.max(seen.lastSeen, entry.lastSeen),
      });
  }
  // Joins in the same millisecond come out in one order on every instance, whatever the hash's.
  return [...byUser.values()].sort((a, b) => a.joinedAt - b.joinedAt || a.userId.localeCompare(b.userId));
}
