import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/test-database.js';
import { migrate } from './migrate.js';

describe('migrate', () => {
  it('applies nothing twice, also when instances start at the same time', async () => {
    const { pool } = await createTestDatabase(); // cloned from the migrated template
    const results = await Promise.all([migrate(pool), migrate(pool), migrate(pool)]);
    expect(results).toEqual([[], [], []]);
    const { rows } = await pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows[0]).toEqual({ version: 1, name: '001_product_tables.sql' });
  });

  it('creates every product table with indexes for the spec queries', async () => {
    const { pool } = await createTestDatabase();
    const { rows } = await pool.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'",
    );
    const names = rows.map((r) => r.indexname);
    for (const index of [
      'jobs_user_created',
      'chat_messages_user_created',
      'manuals_created_at',
      'tags_name',
      'release_versions_year',
      'user_roles_updated_at',
      'manual_content_created_at',
      'manuals_title_search',
    ]) {
      expect(names).toContain(index);
    }
  });
});
