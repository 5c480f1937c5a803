// One table of the REST API: `{baseUrl}/api/db/{pid}/rest/v1/{table}` (PLATFORM_API.md §3.4).
import { camelToSnake, keysToCamel, keysToSnake } from '../case.js';
import { FieldAssistError } from '../errors.js';
import type { HttpCore, HttpMethod } from '../http.js';
import { withId } from './id.js';
import { listToParams, whereToParams } from './query.js';
import type { RowInput, TableClient, Where, WriteOptions } from './types.js';

const REPRESENTATION = { Prefer: 'return=representation' };

interface Call {
  method: HttpMethod;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

function firstRow(data: unknown): unknown {
  if (Array.isArray(data)) return data[0];
  return typeof data === 'object' && data !== null && !(data instanceof Blob) ? data : undefined;
}

function rowsOf(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  const row = firstRow(data);
  return row === undefined ? [] : [row];
}

function preferFor(options: WriteOptions | undefined): Record<string, string> {
  return options?.returning === false ? {} : REPRESENTATION;
}

/** The client for table `name` (camelCase; sent snake_cased). */
export function createTable<R>(http: HttpCore, projectId: string, name: string): TableClient<R> {
  const path = `/db/${encodeURIComponent(projectId)}/rest/v1/${encodeURIComponent(camelToSnake(name))}`;

  const call = async ({ method, query, body, headers }: Call) => {
    const response = await http.request({ method, path, query, headers, body: keysToSnake(body) });
    return { data: keysToCamel(response.data), headers: response.headers };
  };

  const insert = async (rows: unknown, options: WriteOptions | undefined, onConflict?: string) => {
    const query = onConflict === undefined ? undefined : { on_conflict: camelToSnake(onConflict) };
    return (await call({ method: 'POST', query, body: rows, headers: preferFor(options) })).data;
  };

  const insertMany = async (rows: readonly RowInput<R>[], options: WriteOptions | undefined, onConflict?: string) => {
    const records = rows.map(withId);
    const result = rowsOf(await insert(records, options, onConflict));
    if (result.length === 0 && options?.returning === false) return records as unknown as R[];
    return result as R[];
  };

  const createOne = async (data: RowInput<R>, options: WriteOptions | undefined, onConflict?: string) => {
    const record = withId(data);
    const row = firstRow(await insert(record, options, onConflict));
    if (row !== undefined) return row as R;
    // Without a representation there is nothing better to return than what was sent.
    if (options?.returning === false) return record as unknown as R;
    throw new FieldAssistError({
      message: onConflict === undefined ? 'Failed to create record' : 'Failed to upsert record',
      code: 'INVALID_RESPONSE',
      status: 0,
    });
  };

  const update = async (id: string, data: RowInput<R>, options?: WriteOptions): Promise<R> => {
    const { data: result } = await call({
      method: 'PATCH',
      query: { id: `eq.${id}` },
      body: data,
      headers: preferFor(options),
    });
    const row = firstRow(result);
    if (row !== undefined) return row as R;
    if (options?.returning === false) return { ...data, id } as unknown as R;
    throw new FieldAssistError({ message: `Record with id ${id} not found`, code: 'NOT_FOUND', status: 404 });
  };

  const count = async (options: { where?: Where<R> } = {}): Promise<number> => {
    const query = listToParams({ where: options.where, select: ['id'] });
    const { data, headers } = await call({ method: 'GET', query, headers: { Prefer: 'count=exact' } });
    // `0-24/137` or `*/0`; a missing or `*` total falls back to the page length, as the SDK does.
    const total = /\/(\d+)$/.exec(headers.get('content-range') ?? '')?.[1];
    return total !== undefined ? Number.parseInt(total, 10) : rowsOf(data).length;
  };

  return {
    async list(options) {
      return rowsOf((await call({ method: 'GET', query: listToParams(options) })).data) as R[];
    },
    async get(id) {
      const { data } = await call({ method: 'GET', query: { id: `eq.${id}`, limit: '1' } });
      return (firstRow(data) as R | undefined) ?? null;
    },
    create: (data, options) => createOne(data, options),
    createMany: (rows, options) => insertMany(rows, options),
    upsert: (data, options) => createOne(data, options, options?.onConflict ?? 'id'),
    upsertMany: (rows, options) => insertMany(rows, options, options?.onConflict ?? 'id'),
    update,
    async updateMany(rows, options) {
      const results: R[] = [];
      for (const { id, ...data } of rows) results.push(await update(id, data as RowInput<R>, options));
      return results;
    },
    async delete(id) {
      await call({ method: 'DELETE', query: { id: `eq.${id}` } });
    },
    async deleteMany({ where }) {
      await call({ method: 'DELETE', query: { select: '*', ...whereToParams(where) } });
    },
    count,
    async exists(options) {
      return (await count(options)) > 0;
    },
  };
}
