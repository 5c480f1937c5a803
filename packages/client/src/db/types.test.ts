// Compile-time checks of the public db types (run by tsc and vitest's expectTypeOf).
import { describe, expectTypeOf, it } from 'vitest';
import { createClient } from '../client.js';
import type { TableClient, Where } from './types.js';

interface Job {
  id: string;
  userId: string;
  title: string;
  priority: 'low' | 'medium' | 'high';
  createdAt: number;
  dueAt: string | null;
}

describe('db types', () => {
  it('types table clients from the Tables map', () => {
    const client = createClient<{ jobs: Job }>({ projectId: 'p', baseUrl: 'http://h' });
    expectTypeOf(client.db.jobs).toEqualTypeOf<TableClient<Job>>();
    expectTypeOf(client.db.jobs.list).returns.resolves.toEqualTypeOf<Job[]>();
    expectTypeOf(client.db.jobs.get).returns.resolves.toEqualTypeOf<Job | null>();
    expectTypeOf<{ userId: 'x'; priority: { in: ['high', 'low'] } }>().toMatchTypeOf<Where<Job>>();
    expectTypeOf<{ OR: [{ createdAt: { gte: 1 } }, { AND: [{ dueAt: { is: null } }] }] }>().toMatchTypeOf<Where<Job>>();
    expectTypeOf<{ dueAt: { lt: Date } }>().toMatchTypeOf<Where<Job>>();
    expectTypeOf<{ priority: 'urgent' }>().not.toMatchTypeOf<Where<Job>>();
    expectTypeOf<{ nope: 1 }>().not.toMatchTypeOf<Where<Job>>();
    expectTypeOf<{ createdAt: { like: 1 } }>().not.toMatchTypeOf<Where<Job>>();
  });

  it('falls back to Record<string, unknown> rows without a Tables map', () => {
    const client = createClient({ projectId: 'p', baseUrl: 'http://h' });
    expectTypeOf(client.db.table('anything')).toEqualTypeOf<TableClient<Record<string, unknown>>>();
    expectTypeOf(client.db.table('anything').list).returns.resolves.toEqualTypeOf<Record<string, unknown>[]>();
  });
});
