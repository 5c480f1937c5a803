import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.js';
import type { TableSchema } from '../schema.js';
import { toQuery } from '../sql.js';
import { compileCursor, compileOrder, compileReturning, compileWhere } from './compile.js';
import { parseRestQuery } from './parse-query.js';

const jobs: TableSchema = {
  name: 'jobs',
  columns: new Map(
    [
      ['id', 'text'],
      ['user_id', 'text'],
      ['title', 'text'],
      ['status', 'text'],
      ['created_at', 'int8'],
      ['flag', 'bool'],
      ['meta', 'jsonb'],
    ].map(([name, type]) => [name!, { name: name!, type: type! }]),
  ),
};

const params = (entries: Record<string, string>) => new URLSearchParams(entries).toString();

describe('parseRestQuery', () => {
  it('reads the worked example of PLATFORM_API.md section 3.3', () => {
    const search = params({
      select: '*',
      or: '(user_id=eq.a&is_done=eq.1,and=(c=eq.3,due_at=in.(1,x y)),title=like.%a+b%)',
      order: 'createdAt',
    });
    const query = parseRestQuery(search);
    expect(query.order).toEqual([{ column: 'created_at', descending: false }]);
    expect(query.filters).toEqual([
      {
        kind: 'or',
        items: [
          { kind: 'and', items: [cond('user_id', 'eq', 'a'), cond('is_done', 'eq', '1')] },
          { kind: 'and', items: [cond('c', 'eq', '3'), cond('due_at', 'in', ['1', 'x y'])] },
          cond('title', 'like', '%a+b%'),
        ],
      },
    ]);
  });

  it('reads negations the platform way', () => {
    const { filters } = parseRestQuery(
      params({ a: 'not.done', b: 'not.in.(1,2)', c: 'not.eq.3', d: 'not.is.null', e: 'not_in.(x)' }),
    );
    expect(filters).toEqual([
      { ...cond('a', 'eq', 'done'), negated: true, rawNot: true },
      { ...cond('b', 'in', ['1', '2']), negated: true },
      { ...cond('c', 'eq', '3'), negated: true },
      { ...cond('d', 'is', 'null'), negated: true },
      { ...cond('e', 'in', ['x']), negated: true },
    ]);
  });

  it('keeps dots and equals signs inside values, and + as space', () => {
    const { filters } = parseRestQuery('title=eq.a.b=c+d');
    expect(filters).toEqual([cond('title', 'eq', 'a.b=c d')]);
  });
});

function cond(column: string, op: string, value: string | string[]) {
  return { kind: 'condition', column, op, negated: false, value };
}

// Everything the compiler may emit besides bound parameters: identifiers of the schema,
// keywords and punctuation. Anything else in the SQL text would be input leaking in.
const allowedSql = new RegExp(
  [
    ...[...jobs.columns.keys()].map((c) => `"${c}"`),
    '"jobs"',
    '\\$\\d+',
    '::text',
    'IS NOT NULL',
    'IS NULL',
    'IS DISTINCT FROM',
    'IS TRUE',
    'IS FALSE',
    'NOT',
    'AND',
    'OR',
    'WHERE',
    'ILIKE',
    'LIKE',
    'ANY',
    'TRUE',
    'FALSE',
    'ORDER BY',
    'ASC',
    'DESC',
    'NULLS FIRST',
    'NULLS LAST',
    'SELECT',
    'FROM',
    '<>',
    '>=',
    '<=',
    '=',
    '<',
    '>',
    '\\(',
    '\\)',
    ',',
    '\\s+',
  ].join('|'),
  'g',
);

function compileAll(search: string) {
  const query = parseRestQuery(search);
  const where = compileWhere(jobs, query.filters);
  const order = compileOrder(jobs, query.order);
  const returning = compileReturning(jobs, query.select);
  const cursor = query.cursor === undefined ? [] : [compileCursor(jobs, query.order, query.cursor).where];
  return [where, order, returning, ...cursor].map(toQuery);
}

const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "'; DROP TABLE jobs; --",
    '" OR 1=1 --',
    ') OR (1=1',
    '1); DELETE FROM jobs; --',
    '$1',
    '\\',
    '%',
    'null',
    '(,)',
    'in.(',
    '"',
  ),
  fc.string({
    unit: fc.constantFrom('(', ')', ',', '.', '=', '&', '"', "'", ';', '-', 'a', 'eq', 'or', 'and', 'not', 'in', ' '),
  }),
);
const columnish = fc.oneof(fc.constantFrom(...jobs.columns.keys(), 'userId', 'createdAt'), hostile);
const op = fc.constantFrom(
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'is',
  'in',
  'not',
  'not.in',
  'not.eq',
  'not_in',
  'bogus',
);
const condition = fc.tuple(columnish, op, hostile).map(([c, o, v]) => `${c}=${o}.${o.endsWith('in') ? `(${v})` : v}`);
const group: fc.Arbitrary<string> = fc.letrec((tie) => ({
  group: fc
    .tuple(
      fc.constantFrom('and', 'or'),
      fc.array(fc.oneof({ depthSize: 'small' }, condition, tie('group')), { maxLength: 4 }),
    )
    .map(([kind, items]) => `${kind}=(${items.join(',')})`),
})).group as fc.Arbitrary<string>;
const queryString = fc
  .array(
    fc.oneof(
      condition.map((c) => c.replace('=', '\u0000')),
      group.map((g) => g.replace('=', '\u0000')),
      fc
        .tuple(fc.constantFrom('select', 'order', 'limit', 'offset', 'cursor', 'on_conflict'), hostile)
        .map(([k, v]) => `${k}\u0000${v}`),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => pairs.map((p) => p.split('\u0000').map(encodeURIComponent).join('=')).join('&'));

describe('property: hostile query strings', () => {
  it('either compile to SQL made only of schema identifiers, keywords and $n, or throw our 4xx', () => {
    fc.assert(
      fc.property(fc.oneof(queryString, fc.string()), (search) => {
        let compiled;
        try {
          compiled = compileAll(search);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(400);
          return;
        }
        for (const { text } of compiled) expect(text.replace(allowedSql, '')).toBe('');
      }),
      { numRuns: 3000 },
    );
  });

  it('carry every filter value into a bound parameter unchanged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('eq', 'neq', 'gt', 'like', 'ilike'),
        fc.string({ minLength: 1 }).filter((v) => v !== 'null'),
        (operator, value) => {
          const [where] = compileAll(params({ title: `${operator}.${value}` }));
          expect(where!.values).toEqual([value]);
        },
      ),
    );
  });
});
