// `where` / `orderBy` / paging → the query parameters of PLATFORM_API.md §3.3.
//
// The output is what the published SDK sends, except for its quirks, fixed here:
// - several operators on one column (`{ age: { gte: 18, lte: 65 } }`) are all sent,
//   inside `and=(...)`, instead of only the last one;
// - column conditions next to an `AND`/`OR` group, and `AND` next to `OR`, are kept
//   (the SDK drops everything but the first group);
// - a Date is sent as its ISO string (the SDK drops it); `null` means `is.null` and an
//   array means `in.(...)` (the SDK drops the first and sends `eq.a,b` for the second);
// - an unknown operator or an unsupported value throws instead of silently widening
//   the filter (which matters most for deleteMany).
import { camelToSnake } from '../case.js';
import { FieldAssistValidationError } from '../errors.js';
import type { ListOptions, OrderBy, Row } from './types.js';

type Filter = { kind: 'filter'; column: string; text: string };
type Group = { kind: 'and' | 'or'; items: Node[][] };
type Node = Filter | Group;
type Condition = Record<string, unknown>;

const COMPARISONS = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike']);

function invalid(message: string): FieldAssistValidationError {
  return new FieldAssistValidationError({ message, code: 'VALIDATION_ERROR', status: 0 });
}

/** null → `null`, booleans → `1`/`0`, Date → ISO string, anything else → its text. */
export function encodeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function isOperatorMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function list(column: string, op: string, values: unknown): string {
  if (!Array.isArray(values)) throw invalid(`Filter "${op}" on ${column} needs an array`);
  return `(${values.map(encodeValue).join(',')})`;
}

function operatorText(column: string, op: string, value: unknown): string {
  if (COMPARISONS.has(op)) return `${op}.${encodeValue(value)}`;
  if (op === 'is') return `is.${encodeValue(value)}`;
  if (op === 'not') return `not.${encodeValue(value)}`;
  if (op === 'in') return `in.${list(column, op, value)}`;
  if (op === 'not_in') return `not.in.${list(column, op, value)}`;
  throw invalid(`Unknown filter operator "${op}" on ${column}`);
}

function fieldNodes(column: string, value: unknown): Filter[] {
  const filter = (text: string): Filter => ({ kind: 'filter', column, text });
  if (value === undefined) return [];
  if (value === null) return [filter('is.null')];
  if (Array.isArray(value)) return [filter(`in.${list(column, 'in', value)}`)];
  if (isOperatorMap(value)) {
    return Object.entries(value)
      .filter(([, operand]) => operand !== undefined)
      .map(([op, operand]) => filter(operatorText(column, op, operand)));
  }
  if (typeof value === 'object' && !(value instanceof Date)) throw invalid(`Unsupported filter value for ${column}`);
  return [filter(`eq.${encodeValue(value)}`)];
}

function conditionNodes(condition: Condition): Node[] {
  const nodes: Node[] = [];
  for (const [key, value] of Object.entries(condition)) {
    if (key === 'AND' || key === 'OR') {
      if (value === undefined) continue;
      if (!Array.isArray(value)) throw invalid(`${key} needs an array of conditions`);
      nodes.push({ kind: key === 'AND' ? 'and' : 'or', items: value.map((item: Condition) => conditionNodes(item)) });
    } else {
      nodes.push(...fieldNodes(camelToSnake(key), value));
    }
  }
  return nodes;
}

function hasRepeatedColumn(filters: Filter[]): boolean {
  return new Set(filters.map((f) => f.column)).size !== filters.length;
}

/** One group item: `col=op.v`, fields joined with `&` (AND), or a nested `and=(...)` when needed. */
function renderItem(nodes: Node[]): string {
  const parts = nodes.map(renderNode).filter(Boolean);
  if (parts.length <= 1) return parts[0] ?? '';
  const filters = nodes.filter((n): n is Filter => n.kind === 'filter');
  if (filters.length === nodes.length && !hasRepeatedColumn(filters)) return parts.join('&');
  return `and=(${parts.join(',')})`;
}

function renderGroupBody(group: Group): string {
  const parts = group.items.map(renderItem).filter(Boolean);
  return parts.length > 0 ? `(${parts.join(',')})` : '';
}

function renderNode(node: Node): string {
  if (node.kind === 'filter') return `${node.column}=${node.text}`;
  const body = renderGroupBody(node);
  return body ? `${node.kind}=${body}` : '';
}

/** Top level: one `col=op.v` parameter per column, an `or=(...)` and an `and=(...)` for the rest. */
export function whereToParams(where: Condition | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  if (!where) return params;
  const nodes = conditionNodes(where);
  const filters = nodes.filter((n): n is Filter => n.kind === 'filter');
  const counts = new Map<string, number>();
  for (const f of filters) counts.set(f.column, (counts.get(f.column) ?? 0) + 1);
  const andParts: string[] = [];
  for (const node of nodes) {
    if (node.kind === 'filter' && counts.get(node.column) === 1) params[node.column] = node.text;
    else if (node.kind === 'filter') andParts.push(renderNode(node));
    else if (node.kind === 'and') andParts.push(...node.items.map(renderItem));
    else if (params.or === undefined && renderGroupBody(node)) params.or = renderGroupBody(node);
    else andParts.push(renderNode(node));
  }
  const and = andParts.filter(Boolean);
  if (and.length > 0) params.and = `(${and.join(',')})`;
  return params;
}

function orderToParam(orderBy: OrderBy<Row>): string {
  if (typeof orderBy === 'string') return orderBy;
  return Object.entries(orderBy)
    .filter(([, direction]) => direction !== undefined)
    .map(([column, direction]) => `${camelToSnake(column)}.${direction}`)
    .join(',');
}

/** Parameters of `list` (and, with `select: ['id']`, of `count`; with only `where`, of `deleteMany`). */
export function listToParams(options: ListOptions<Row> = {}): Record<string, string> {
  const params: Record<string, string> = {};
  params.select = options.select && options.select.length > 0 ? options.select.map(camelToSnake).join(',') : '*';
  Object.assign(params, whereToParams(options.where));
  if (options.orderBy) {
    const order = orderToParam(options.orderBy);
    if (order) params.order = order;
  }
  if (options.limit !== undefined) params.limit = String(options.limit);
  if (options.offset !== undefined) params.offset = String(options.offset);
  if (options.cursor) params.cursor = options.cursor;
  return params;
}
