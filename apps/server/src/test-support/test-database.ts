import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../db/pool.js';
import { withDatabase } from './global-setup.js';

/**
 * A fresh database for the calling test file, cloned from the migrated template (or, `empty`,
 * with no tables at all), dropped at the end of the run (global-setup.ts). Test files therefore
 * run in parallel without sharing rows.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<{ url: string; pool: pg.Pool }> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `${inject('runDatabasePrefix')}${empty ? 'empty' : 'test'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}"${empty ? '' : ` TEMPLATE "${inject('templateDatabase')}"`}`);
        break;
      } catch (error) {
        // Two files cloning the template at the same instant: PostgreSQL refuses the second.
        if (attempt > 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  // A file may make dozens of databases (retrieve.test.ts one a library) and never end their pools:
  // clients idle for a second are let go, so the connections stay under PostgreSQL's max_connections.
  return { url, pool: createPool(url, 5, 1000) };
}
