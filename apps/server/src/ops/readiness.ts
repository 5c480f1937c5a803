import type { Redis } from 'ioredis';
import type pg from 'pg';
import { pendingMigrations } from '../db/migrate.js';

export interface ReadinessDeps {
  pool: pg.Pool;
  redis?: Redis;
}

export type Readiness = { ready: boolean; checks: Record<string, string> };

const CHECK_TIMEOUT_MS = 3000;

/**
 * Whether this instance can serve traffic: the database answers and has every migration this
 * build needs, and Redis answers when one is configured. Each check gives up after 3 s.
 */
export async function checkReadiness({ pool, redis }: ReadinessDeps): Promise<Readiness> {
  const checks: Record<string, Promise<string>> = {
    database: run(async () => void (await pool.query('SELECT 1'))),
    migrations: run(async () => {
      const pending = await pendingMigrations(pool);
      if (pending.length) throw new Error(`not applied: ${pending.join(', ')}`);
    }),
  };
  if (redis) checks.redis = run(async () => void (await redis.ping()));
  const results = Object.fromEntries(
    await Promise.all(Object.entries(checks).map(async ([name, check]) => [name, await check])),
  );
  return { ready: Object.values(results).every((result) => result === 'ok'), checks: results };
}

async function run(check: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (error) {
    return (error as Error).message || 'failed';
  } finally {
    clearTimeout(timer);
  }
}
