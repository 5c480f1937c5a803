// Every filter operator, group form, order and paging option of `db.<table>.list`,
// through the client against the real server (PLATFORM_API.md §3.3).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListOptions, Where } from '../src/index.js';
import { type Job, type ReleaseVersion, type User, unique, useServer } from './support.js';

const server = useServer();
const owner = unique('filters');
const id = (letter: string) => `${owner}-${letter}`;

/** The letters of the jobs that `where` selects among this file's fixture, oldest first. */
async function letters(
  where: Where<Job>,
  options: Omit<ListOptions<Job>, 'where'> = { orderBy: { createdAt: 'asc' } },
) {
  const rows = await server.client.db.jobs.list({ where: { userId: owner, ...where }, ...options });
  return rows.map((row) => row.id.slice(owner.length + 1));
}

beforeAll(async () => {
  await server.client.db.jobs.createMany([
    {
      id: id('a'),
      userId: owner,
      title: 'Replace pump seal',
      description: 'd',
      status: 'pending',
      priority: 'high',
      createdAt: 1000,
    },
    {
      id: id('b'),
      userId: owner,
      title: 'Inspect valve + gauge',
      description: 'd',
      status: 'in-progress',
      priority: 'medium',
      createdAt: 2000,
    },
    {
      id: id('c'),
      userId: owner,
      title: 'fix PUMP motor',
      description: 'd',
      status: 'completed',
      priority: 'low',
      createdAt: 3000,
    },
    {
      id: id('d'),
      userId: owner,
      title: 'Calibrate sensor',
      description: 'd',
      status: 'pending',
      priority: 'low',
      createdAt: 4000,
    },
  ]);
});

describe('column operators', () => {
  it('plain value and eq', async () => {
    expect(await letters({})).toEqual(['a', 'b', 'c', 'd']);
    expect(await letters({ status: 'pending' })).toEqual(['a', 'd']);
    expect(await letters({ priority: { eq: 'high' } })).toEqual(['a']);
  });

  it('neq and not', async () => {
    expect(await letters({ status: { neq: 'pending' } })).toEqual(['b', 'c']);
    expect(await letters({ status: { not: 'pending' } })).toEqual(['b', 'c']);
  });

  it('gt, gte, lt, lte', async () => {
    expect(await letters({ createdAt: { gt: 2000 } })).toEqual(['c', 'd']);
    expect(await letters({ createdAt: { gte: 2000 } })).toEqual(['b', 'c', 'd']);
    expect(await letters({ createdAt: { lt: 2000 } })).toEqual(['a']);
    expect(await letters({ createdAt: { lte: 2000 } })).toEqual(['a', 'b']);
  });

  it('sends both bounds of a range on one column', async () => {
    expect(await letters({ createdAt: { gte: 2000, lte: 3000 } })).toEqual(['b', 'c']);
  });

  it('like is case-sensitive, ilike is not, and + and spaces survive the query string', async () => {
    expect(await letters({ title: { like: '%pump%' } })).toEqual(['a']);
    expect(await letters({ title: { ilike: '%pump%' } })).toEqual(['a', 'c']);
    expect(await letters({ title: { like: '%valve + gauge' } })).toEqual(['b']);
  });

  it('in, not_in and a plain array', async () => {
    expect(await letters({ priority: { in: ['high', 'low'] } })).toEqual(['a', 'c', 'd']);
    expect(await letters({ priority: { not_in: ['low'] } })).toEqual(['a', 'b']);
    expect(await letters({ priority: ['high', 'medium'] })).toEqual(['a', 'b']);
  });

  it('is null, eq null, neq null and a plain null', async () => {
    const by = unique('nulls');
    const { releaseVersions } = server.client.db;
    await releaseVersions.createMany([
      { id: `${by}-none`, versionName: 'v1', releaseYear: 2020, description: null, createdBy: by },
      { id: `${by}-some`, versionName: 'v2', releaseYear: 2021, description: 'notes', createdBy: by },
    ]);
    const pick = async (where: Where<ReleaseVersion>) =>
      (await releaseVersions.list({ where: { createdBy: by, ...where }, orderBy: { releaseYear: 'asc' } })).map((v) =>
        v.id.slice(by.length + 1),
      );
    expect(await pick({ description: { is: null } })).toEqual(['none']);
    expect(await pick({ description: { eq: null } })).toEqual(['none']);
    expect(await pick({ description: null })).toEqual(['none']);
    expect(await pick({ description: { neq: null } })).toEqual(['some']);
    expect(await pick({ description: { not: 'notes' } })).toEqual(['none']);
  });

  it('is true / is false on 0/1 flag columns', async () => {
    const domain = `${unique('flags')}.test`;
    await server.client.db.users.createMany([
      { id: `on@${domain}`, email: `on@${domain}`, emailVerified: 1 },
      { id: `off@${domain}`, email: `off@${domain}`, emailVerified: 0 },
    ]);
    const pick = async (where: Where<User>) =>
      (await server.client.db.users.list({ where: { email: { like: `%@${domain}` }, ...where } })).map((u) => u.id);
    expect(await pick({ emailVerified: { is: true } })).toEqual([`on@${domain}`]);
    expect(await pick({ emailVerified: { is: false } })).toEqual([`off@${domain}`]);
  });

  it('a Date is compared as its ISO string', async () => {
    const by = unique('dates');
    await server.client.db.releaseVersions.createMany([
      {
        id: `${by}-old`,
        versionName: 'old',
        releaseYear: 2020,
        createdAt: new Date('2020-01-01T00:00:00Z'),
        createdBy: by,
      },
      {
        id: `${by}-new`,
        versionName: 'new',
        releaseYear: 2024,
        createdAt: new Date('2024-01-01T00:00:00Z'),
        createdBy: by,
      },
    ]);
    const rows = await server.client.db.releaseVersions.list({
      where: { createdBy: by, createdAt: { gte: new Date('2023-01-01T00:00:00Z') } },
    });
    expect(rows.map((r) => r.id)).toEqual([`${by}-new`]);
  });
});

describe('groups', () => {
  it('OR of single-field items and of multi-field items', async () => {
    expect(await letters({ OR: [{ priority: 'high' }, { status: 'completed' }] })).toEqual(['a', 'c']);
    expect(await letters({ OR: [{ status: 'pending', priority: 'low' }, { priority: 'medium' }] })).toEqual(['b', 'd']);
  });

  it('AND groups, nested groups and groups beside columns', async () => {
    expect(await letters({ AND: [{ createdAt: { gt: 1000 } }, { createdAt: { lt: 4000 } }] })).toEqual(['b', 'c']);
    expect(
      await letters({
        OR: [{ AND: [{ status: 'pending' }, { createdAt: { gt: 1000 } }] }, { title: { ilike: '%VALVE%' } }],
      }),
    ).toEqual(['b', 'd']);
    expect(await letters({ priority: 'low', OR: [{ status: 'completed' }, { title: { like: 'Cal%' } }] })).toEqual([
      'c',
      'd',
    ]);
    expect(
      await letters({ AND: [{ priority: { neq: 'high' } }], OR: [{ status: 'pending' }, { status: 'completed' }] }),
    ).toEqual(['c', 'd']);
    expect(
      await letters({ OR: [{ createdAt: { gte: 2000, lte: 3000 }, priority: 'low' }, { priority: 'high' }] }),
    ).toEqual(['a', 'c']);
  });
});

describe('order, select and paging', () => {
  it('orders by object form, by string form and by several columns', async () => {
    expect(await letters({}, { orderBy: { createdAt: 'desc' } })).toEqual(['d', 'c', 'b', 'a']);
    expect(await letters({}, { orderBy: 'created_at.desc' })).toEqual(['d', 'c', 'b', 'a']);
    expect(await letters({}, { orderBy: 'createdAt' })).toEqual(['a', 'b', 'c', 'd']);
    expect(await letters({}, { orderBy: { priority: 'asc', createdAt: 'desc' } })).toEqual(['a', 'd', 'c', 'b']);
  });

  it('limit, offset and cursor', async () => {
    expect(await letters({}, { orderBy: { createdAt: 'asc' }, limit: 2 })).toEqual(['a', 'b']);
    expect(await letters({}, { orderBy: { createdAt: 'asc' }, limit: 2, offset: 1 })).toEqual(['b', 'c']);
    expect(await letters({}, { orderBy: { createdAt: 'asc' }, cursor: id('b') })).toEqual(['c', 'd']);
  });

  it('select returns only the named columns, camelCased', async () => {
    const rows = await server.client.db.jobs.list({ where: { id: id('a') }, select: ['id', 'userId'] });
    expect(rows).toEqual([{ id: id('a'), userId: owner }]);
  });
});
