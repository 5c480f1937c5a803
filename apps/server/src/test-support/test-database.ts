import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createPool } from '../db/pool.js';
import { withDatabase } from './global-setup.js';

/**
 * A fresh database for the calling test file, cloned from the migrated template (or, `empty`,
 * with no tables at all), dropped after the file's tests. Test files therefore run in parallel
 * without sharing rows.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<{ url: string; pool: pg.Pool }> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `fa_${empty ? 'empty' : 'test'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
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
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, 5);
  afterAll(async () => {
    await pool.end();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });
  return { url, pool };
}
