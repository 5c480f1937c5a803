// `client.db`: a Proxy whose every property is a table client, plus `table`, `sql`, `batch`.
import { keysToCamel } from '../case.js';
import { FieldAssistError } from '../errors.js';
import type { HttpCore } from '../http.js';
import { createTable } from './table.js';
import type { BatchResult, DbClient, DbMethods, Row, SqlResult, TableClient } from './types.js';

function invalidResponse(): FieldAssistError {
  return new FieldAssistError({ message: 'Invalid response format', code: 'INVALID_RESPONSE', status: 0 });
}

function withCamelRows<T>(result: unknown): T {
  if (typeof result !== 'object' || result === null || !Array.isArray((result as { rows?: unknown }).rows)) {
    throw invalidResponse();
  }
  return { ...result, rows: keysToCamel((result as { rows: unknown[] }).rows) } as T;
}

export function createDb<Tables>(http: HttpCore, projectId: string): DbClient<Tables> {
  const tables = new Map<string, TableClient<unknown>>();
  const dbPath = `/db/${encodeURIComponent(projectId)}`;

  const methods: DbMethods<Tables> = {
    table<K extends keyof Tables & string>(name: K) {
      let table = tables.get(name);
      if (!table) tables.set(name, (table = createTable<unknown>(http, projectId, name)));
      return table as TableClient<Tables[K]>;
    },
    async sql<T = Row>(query: string, params?: readonly unknown[]) {
      const { data } = await http.request({ method: 'POST', path: `${dbPath}/sql`, body: { query, params } });
      return withCamelRows<SqlResult<T>>(data);
    },
    async batch<T = Row>(
      statements: readonly { sql: string; args?: readonly unknown[] }[],
      mode: 'read' | 'write' = 'write',
    ) {
      const { data } = await http.request({ method: 'POST', path: `${dbPath}/batch`, body: { statements, mode } });
      const results = (data as { results?: unknown } | null)?.results;
      if (!Array.isArray(results)) throw invalidResponse();
      return { ...(data as object), results: results.map((result) => withCamelRows(result)) } as BatchResult<T>;
    },
  };

  return new Proxy(methods, {
    get(target, property, receiver) {
      if (typeof property === 'symbol' || property in target) return Reflect.get(target, property, receiver) as unknown;
      // Not a table: keeps `await client.db` and similar duck-typing checks harmless.
      if (property === 'then') return undefined;
      return methods.table(property as keyof Tables & string);
    },
  }) as DbClient<Tables>;
}
