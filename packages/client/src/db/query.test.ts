import { describe, expect, it } from 'vitest';
import { createHttpCore } from '../http.js';
import { listToParams, whereToParams } from './query.js';

/** The parameters as a server decodes them from the URL the client would send. */
function decoded(params: Record<string, string>): Record<string, string> {
  const url = new URL(createHttpCore({ baseUrl: 'http://h' }).url('/db/p/rest/v1/t', params));
  return Object.fromEntries(url.searchParams);
}

describe('listToParams', () => {
  it('matches the worked example of PLATFORM_API.md §3.3', () => {
    const params = listToParams({
      where: {
        OR: [
          { userId: 'a', isDone: true },
          { AND: [{ c: 3 }, { dueAt: { in: [1, 'x y'] } }] },
          { title: { like: '%a+b%' } },
        ],
      },
      orderBy: 'createdAt',
    });
    expect(decoded(params)).toEqual({
      select: '*',
      or: '(user_id=eq.a&is_done=eq.1,and=(c=eq.3,due_at=in.(1,x y)),title=like.%a+b%)',
      order: 'createdAt',
    });
  });

  it('form-encodes with URLSearchParams (space as +, parentheses and commas escaped)', () => {
    const url = createHttpCore({ baseUrl: 'http://h/' }).url('/x', { or: '(a=eq.x y,b=like.%+*)' });
    expect(url).toBe('http://h/api/x?or=%28a%3Deq.x+y%2Cb%3Dlike.%25%2B*%29');
  });

  it('sends select, filters, order, limit, offset and cursor', () => {
    expect(
      listToParams({
        select: ['id', 'createdAt'],
        where: { userId: 'u' },
        orderBy: { createdAt: 'desc', title: 'asc' },
        limit: 10,
        offset: 20,
        cursor: 'c1',
      }),
    ).toEqual({
      select: 'id,created_at',
      user_id: 'eq.u',
      order: 'created_at.desc,title.asc',
      limit: '10',
      offset: '20',
      cursor: 'c1',
    });
    expect(listToParams()).toEqual({ select: '*' });
    expect(listToParams({ limit: 0, offset: 0 })).toEqual({ select: '*', limit: '0', offset: '0' });
  });
});

describe('whereToParams', () => {
  it('encodes every operator as col=op.value', () => {
    expect(
      whereToParams({
        a: 'x',
        b: 3,
        c: false,
        d: { eq: 1 },
        e: { neq: 'n' },
        f: { gt: 1 },
        g: { gte: 2 },
        h: { lt: 3 },
        i: { lte: 4 },
        j: { like: 'a%' },
        k: { ilike: '%B' },
        l: { is: null },
        m: { is: true },
        n: { is: false },
        o: { not: 'done' },
        p: { in: ['a', 2, true] },
        q: { not_in: ['x', 'y'] },
        r: { eq: null },
      }),
    ).toEqual({
      a: 'eq.x',
      b: 'eq.3',
      c: 'eq.0',
      d: 'eq.1',
      e: 'neq.n',
      f: 'gt.1',
      g: 'gte.2',
      h: 'lt.3',
      i: 'lte.4',
      j: 'like.a%',
      k: 'ilike.%B',
      l: 'is.null',
      m: 'is.1',
      n: 'is.0',
      o: 'not.done',
      p: 'in.(a,2,1)',
      q: 'not.in.(x,y)',
      r: 'eq.null',
    });
  });

  it('snake-cases column names and drops undefined values', () => {
    expect(whereToParams({ userId: 'u', dueAt: undefined, priority: { gte: undefined } })).toEqual({ user_id: 'eq.u' });
  });

  it('sends a top-level AND group as and=(...)', () => {
    expect(whereToParams({ AND: [{ a: 1 }, { b: { lt: 2 }, c: 'x' }] })).toEqual({ and: '(a=eq.1,b=lt.2&c=eq.x)' });
  });

  it('nests groups inside groups', () => {
    expect(whereToParams({ OR: [{ AND: [{ a: 1 }, { OR: [{ b: 2 }, { c: 3 }] }] }, { d: 4 }] })).toEqual({
      or: '(and=(a=eq.1,or=(b=eq.2,c=eq.3)),d=eq.4)',
    });
  });

  it('skips empty groups', () => {
    expect(whereToParams({ OR: [], AND: [{}] })).toEqual({});
  });

  // Fixed SDK quirks (see the comment at the top of query.ts).
  it('sends both bounds of a range on one column', () => {
    expect(whereToParams({ age: { gte: 18, lte: 65 } })).toEqual({ and: '(age=gte.18,age=lte.65)' });
    expect(whereToParams({ OR: [{ age: { gte: 18, lte: 65 }, name: 'x' }, { name: 'y' }] })).toEqual({
      or: '(and=(age=gte.18,age=lte.65,name=eq.x),name=eq.y)',
    });
  });

  it('keeps columns and groups side by side', () => {
    expect(whereToParams({ c: 3, OR: [{ a: 1 }, { b: 2 }], AND: [{ d: 4 }] })).toEqual({
      c: 'eq.3',
      or: '(a=eq.1,b=eq.2)',
      and: '(d=eq.4)',
    });
    expect(whereToParams({ OR: [{ a: 1, OR: [{ b: 2 }, { c: 3 }] }] })).toEqual({
      or: '(and=(a=eq.1,or=(b=eq.2,c=eq.3)))',
    });
  });

  it('sends a Date as its ISO string, null as is.null and an array as in', () => {
    const at = new Date('2024-01-02T03:04:05.000Z');
    expect(whereToParams({ createdAt: { gte: at }, updatedAt: at, deletedAt: null, status: ['a', 'b'] })).toEqual({
      created_at: 'gte.2024-01-02T03:04:05.000Z',
      updated_at: 'eq.2024-01-02T03:04:05.000Z',
      deleted_at: 'is.null',
      status: 'in.(a,b)',
    });
  });

  it('refuses unknown operators and non-array lists instead of dropping them', () => {
    expect(() => whereToParams({ a: { between: [1, 2] } })).toThrow(/Unknown filter operator "between" on a/);
    expect(() => whereToParams({ a: { in: 'x' } })).toThrow(/needs an array/);
    expect(() => whereToParams({ a: new Map() })).toThrow(/Unsupported filter value/);
  });
});
