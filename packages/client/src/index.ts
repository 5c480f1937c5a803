export { createClient } from './client.js';
export type { ClientOptions, FieldAssistClient, UntypedTables } from './client.js';
export { FieldAssistError, isFieldAssistError } from './errors.js';
export { camelToSnake, snakeToCamel } from './case.js';
export type { AccessTokenGetter, FetchLike } from './http.js';
export type {
  BatchResult,
  BatchStatement,
  DbClient,
  FieldCondition,
  FilterValue,
  ListOptions,
  Operators,
  OrderBy,
  Row,
  RowInput,
  SortDirection,
  SqlResult,
  TableClient,
  UpsertOptions,
  Where,
  WriteOptions,
} from './db/types.js';
