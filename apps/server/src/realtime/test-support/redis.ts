import { connect } from 'node:net';

/** The Redis the tests use: TEST_REDIS_URL, else the machine's own on the standard port. */
export const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0';

/**
 * Whether that Redis answers. A fresh machine with only Node has none: the Redis cases are then
 * left out with a warning, unless TEST_REDIS_URL names one (as CI does), when they must run.
 */
export const redisAvailable: boolean = await new Promise((resolve) => {
  const { hostname, port } = new URL(REDIS_URL);
  const socket = connect({ host: hostname, port: Number(port || 6379), timeout: 1000 });
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false)).once('timeout', () => (socket.destroy(), resolve(false)));
});
if (!redisAvailable) {
  if (process.env.TEST_REDIS_URL) throw new Error(`TEST_REDIS_URL is set but no Redis answers at ${REDIS_URL}`);
  console.warn(
    `No Redis at ${REDIS_URL}: the realtime tests on the Redis hub are left out (set TEST_REDIS_URL to run them).`,
  );
}
