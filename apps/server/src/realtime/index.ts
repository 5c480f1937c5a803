// The realtime module (ARCHITECTURE.md): what the rest of the server uses.
import type { Redis } from 'ioredis';
import type { RealtimeHub } from './hub.js';
import { createMemoryHub } from './memory-hub.js';
import { createRedisHub } from './redis-hub.js';

export { registerRealtimeRoutes, type RealtimeRouteDeps } from './routes.js';
export { MANUALS_CHANNEL, userChannel } from './channels.js';
export type { RealtimeHub, RealtimeMessage, PresenceUser } from './hub.js';

/** The configured hub: Redis pub/sub across instances when REDIS_URL is set (its connection given), else in-process. */
export function createRealtimeHub({ redis, projectId }: { redis?: Redis; projectId: string }): RealtimeHub {
  return redis ? createRedisHub({ redis, prefix: `fieldassist:${projectId}:rt:` }) : createMemoryHub();
}
