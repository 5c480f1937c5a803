// SPEC.md section 9 and PLATFORM_API.md 8.4.
export const CONNECT_TIMEOUT_MS = 10_000;
export const ACK_TIMEOUT_MS = 10_000;
export const PING_INTERVAL_MS = 25_000;

/** Wait before reconnect attempt `attempt` (0-based): 2^attempt s, at most 30 s, plus up to 1 s of jitter. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  return Math.min(30_000, 2 ** attempt * 1000) + Math.floor(random() * 1000);
}
