// The visit's session and its remembered UTM attribution, both kept in localStorage under the
// published SDK's keys (PLATFORM_API.md section 13), so either client continues the other's.
import { UTM_KEYS, type Utm } from './channel.js';
import type { AnalyticsStorage } from './types.js';

export const SESSION_TIMEOUT_MS = 30 * 60 * 1000;

export const storageKeys = (projectId: string) => ({
  queue: `blinkAnalyticsQueue_${projectId}`,
  session: `blinkAnalyticsSession_${projectId}`,
  attribution: `blinkAnalyticsAttribution_${projectId}`,
});

/** Storage whose failures (private mode, quota, blocked cookies) read as empty and write nothing. */
export function safeStorage(storage: AnalyticsStorage | undefined) {
  return {
    read(key: string): unknown {
      try {
        const text = storage?.getItem(key);
        return text ? (JSON.parse(text) as unknown) : null;
      } catch {
        return null;
      }
    },
    write(key: string, value: unknown) {
      try {
        storage?.setItem(key, JSON.stringify(value));
      } catch {
        // Still works for this page; only a reload forgets it.
      }
    },
    remove(key: string) {
      try {
        storage?.removeItem(key);
      } catch {
        // Nothing to forget.
      }
    },
  };
}
export type SafeStorage = ReturnType<typeof safeStorage>;

interface Session {
  id: string;
  startedAt: number;
  lastActivityAt: number;
}

function isSession(value: unknown): value is Session {
  const session = value as Session | null;
  return (
    typeof session?.id === 'string' &&
    typeof session.startedAt === 'number' &&
    typeof session.lastActivityAt === 'number'
  );
}

/** `sess_<ms>_<8 base36 characters>`. */
export function newSessionId(now: number, random: () => number): string {
  const suffix = Array.from({ length: 8 }, () => Math.floor(random() * 36).toString(36)).join('');
  return `sess_${now}_${suffix}`;
}

/**
 * The session id for an event at `now`: the stored one, or a new one after 30 minutes
 * without events. Also kept in memory, so it holds when storage is unavailable.
 */
export function createSessionTracker(store: SafeStorage, key: string, random: () => number) {
  let current: Session | null = null;
  return (now: number): string => {
    const stored = store.read(key);
    // Another tab of the same site may have moved the session on.
    const session = isSession(stored) ? stored : current;
    current =
      session && now - session.lastActivityAt <= SESSION_TIMEOUT_MS
        ? { ...session, lastActivityAt: now }
        : { id: newSessionId(now, random), startedAt: now, lastActivityAt: now };
    store.write(key, current);
    return current.id;
  };
}

/** The landing URL's UTM values merged into the remembered ones; returns the merged set. */
export function rememberAttribution(store: SafeStorage, key: string, landing: Utm): Utm {
  const stored = store.read(key);
  const remembered: Utm = {};
  for (const utmKey of UTM_KEYS) {
    const value = (stored as Utm | null)?.[utmKey];
    if (typeof value === 'string') remembered[utmKey] = value;
  }
  const merged = { ...remembered, ...landing };
  if (Object.keys(landing).length > 0) store.write(key, merged);
  return merged;
}
