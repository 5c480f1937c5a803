import { ApiError } from '../../errors.js';

/**
 * Parses the query string of a REST call into a syntax tree, following the grammar the
 * platform client produces (PLATFORM_API.md section 3.3), which is not PostgREST's:
 * groups are `or=(a=eq.1,and=(b=gt.2,c=is.null))`, `&` joins fields inside a group item,
 * `not.<value>` is a raw negation and `not.in.(...)` a negated list. Column names are only
 * checked for shape here; the compiler checks them against the schema.
 */

export const operators = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'is', 'in'] as const;
export type Operator = (typeof operators)[number];

export interface Condition {
  kind: 'condition';
  column: string;
  op: Operator;
  negated: boolean;
  /** A list for `in`, the literal otherwise. */
  value: string | string[];
  /** `not.<value>`: "differs from", where NULL differs from every value. */
  rawNot?: boolean;
}

export interface Group {
  kind: 'and' | 'or';
  items: Filter[];
}

export type Filter = Condition | Group;

export interface OrderTerm {
  column: string;
  descending: boolean;
  nulls?: 'first' | 'last';
}

export interface RestQuery {
  /** Column names; '*' stands for every column. */
  select: string[];
  filters: Filter[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
  cursor?: string;
  onConflict?: string[];
}

const MAX_DEPTH = 8;
const MAX_CONDITIONS = 200;
const columnShape = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** camelCase names (orders and on_conflict arrive unconverted) become snake_case. */
export function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function columnName(raw: string, param: string): string {
  const name = raw.trim();
  if (!columnShape.test(name)) {
    throw new ApiError('INVALID_PARAMETER', `Invalid column name '${name.slice(0, 64)}' in ${param}`);
  }
  return toSnake(name);
}

export function parseRestQuery(search: string): RestQuery {
  const params = new URLSearchParams(search);
  const query: RestQuery = { select: ['*'], filters: [], order: [] };
  let conditions = 0;
  const count = () => {
    if (++conditions > MAX_CONDITIONS)
      throw new ApiError('INVALID_FILTER', `Too many filter conditions (at most ${MAX_CONDITIONS})`);
  };
  for (const [key, value] of params) {
    switch (key) {
      case 'select':
        query.select = parseSelect(value);
        break;
      case 'order':
        query.order = parseOrder(value);
        break;
      case 'limit':
      case 'offset':
        query[key] = parseCount(key, value);
        break;
      case 'cursor':
        query.cursor = value;
        break;
      case 'on_conflict':
        query.onConflict = value.split(',').map((c) => columnName(c, 'on_conflict'));
        break;
      case 'and':
      case 'or':
        query.filters.push(parseGroup(key, value, 1, count));
        break;
      default:
        count();
        query.filters.push(parseCondition(columnName(key, 'filter'), value));
    }
  }
  return query;
}

/** Every item is checked, those beside a '*' too, so nothing unknown passes unseen. */
function parseSelect(value: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return ['*'];
  return [...new Set(items.map((item) => (item === '*' ? item : columnName(item, 'select'))))];
}

function parseOrder(value: string): OrderTerm[] {
  return value
    .split(',')
    .filter((s) => s.trim())
    .map((term) => {
      const [name = '', ...modifiers] = term.trim().split('.');
      const order: OrderTerm = { column: columnName(name, 'order'), descending: false };
      for (const modifier of modifiers) {
        if (modifier === 'asc' || modifier === 'desc') order.descending = modifier === 'desc';
        else if (modifier === 'nullsfirst' || modifier === 'nullslast')
          order.nulls = modifier === 'nullsfirst' ? 'first' : 'last';
        else throw new ApiError('INVALID_PARAMETER', `Invalid order direction '${modifier.slice(0, 32)}' in order`);
      }
      return order;
    });
}

function parseCount(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new ApiError('INVALID_PARAMETER', `${name} must be a non-negative integer`);
  return Number(value);
}

/** `col` has been split off; `value` is `op.rest`. */
function parseCondition(column: string, value: string): Condition {
  const dot = value.indexOf('.');
  const op = dot < 0 ? value : value.slice(0, dot);
  const rest = dot < 0 ? undefined : value.slice(dot + 1);
  if (rest === undefined) throw invalidFilter(column, value);
  if (op === 'not') {
    if (rest.startsWith('in.')) return { ...listCondition(column, rest.slice(3)), negated: true };
    const innerDot = rest.indexOf('.');
    const inner = innerDot < 0 ? '' : rest.slice(0, innerDot);
    if (isOperator(inner)) return { ...parseCondition(column, rest), negated: true };
    return { kind: 'condition', column, op: 'eq', negated: true, value: rest, rawNot: true };
  }
  if (op === 'not_in') return { ...listCondition(column, rest), negated: true };
  if (!isOperator(op)) throw invalidFilter(column, value);
  if (op === 'in') return listCondition(column, rest);
  if (op === 'is' && !['null', 'true', 'false', '1', '0'].includes(rest.toLowerCase())) {
    throw new ApiError('INVALID_FILTER', `Invalid filter on '${column}': is takes null, true, false, 1 or 0`);
  }
  return { kind: 'condition', column, op, negated: false, value: rest };
}

function isOperator(op: string): op is Operator {
  return (operators as readonly string[]).includes(op);
}

function invalidFilter(column: string, value: string): ApiError {
  return new ApiError(
    'INVALID_FILTER',
    `Invalid filter on '${column}': '${value.slice(0, 64)}' is not <operator>.<value>`,
  );
}

function listCondition(column: string, list: string): Condition {
  if (!list.startsWith('(') || !list.endsWith(')')) {
    throw new ApiError('INVALID_FILTER', `Invalid filter on '${column}': in takes a list like (a,b)`);
  }
  const inner = list.slice(1, -1);
  return { kind: 'condition', column, op: 'in', negated: false, value: inner === '' ? [] : splitList(inner) };
}

/** Splits on commas; double-quoted items may hold commas (`"a,b"`, with `\"` inside). */
function splitList(inner: string): string[] {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (quoted && c === '\\' && i + 1 < inner.length) current += inner[++i];
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      items.push(current);
      current = '';
    } else current += c;
  }
  items.push(current);
  return items;
}

function parseGroup(kind: 'and' | 'or', value: string, depth: number, count: () => void): Group {
  if (depth > MAX_DEPTH) throw new ApiError('INVALID_FILTER', `Filter groups nest too deeply (at most ${MAX_DEPTH})`);
  if (!value.startsWith('(') || !value.endsWith(')')) {
    throw new ApiError('INVALID_FILTER', `Invalid ${kind} group: expected (...)`);
  }
  const items: Filter[] = [];
  for (const item of splitTopLevel(value.slice(1, -1), ',')) {
    if (item === '') throw new ApiError('INVALID_FILTER', `Invalid ${kind} group: empty item`);
    const nested = /^(and|or)=/.exec(item);
    if (nested) {
      items.push(parseGroup(nested[1] as 'and' | 'or', item.slice(nested[0].length), depth + 1, count));
      continue;
    }
    const fields = splitTopLevel(item, '&').map((field) => {
      count();
      const eq = field.indexOf('=');
      if (eq <= 0)
        throw new ApiError(
          'INVALID_FILTER',
          `Invalid ${kind} group item '${field.slice(0, 64)}': expected column=operator.value`,
        );
      return parseCondition(columnName(field.slice(0, eq), `${kind} group`), field.slice(eq + 1));
    });
    items.push(fields.length === 1 ? fields[0]! : { kind: 'and', items: fields });
  }
  return { kind, items };
}

/** Splits at separators outside parentheses and double quotes. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
