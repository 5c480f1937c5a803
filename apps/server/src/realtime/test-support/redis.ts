/** The machine's Redis (REDIS_URL for the tests, else the standard local port). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
