import { createDb } from './db/index.js';
import type { DbClient, Row } from './db/types.js';
import { FieldAssistError } from './errors.js';
import { createHttpCore, type AccessTokenGetter, type FetchLike } from './http.js';

export interface ClientOptions {
  projectId: string;
  /** Origin of the FieldAssist server (`https://host`); requests go to `${baseUrl}/api/...`. */
  baseUrl: string;
  /** The service key, for server-side code only: refused in a browser. */
  secretKey?: string;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** The signed-in user's access token, asked before each request (ignored when `secretKey` is set). */
  getAccessToken?: AccessTokenGetter;
}

/** Tables of an untyped client: any name, rows as plain records. */
export type UntypedTables = Record<string, Row>;

export interface FieldAssistClient<Tables = UntypedTables> {
  readonly projectId: string;
  readonly db: DbClient<Tables>;
}

function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}

/**
 * Creates a platform client. `Tables` maps camelCase table names to camelCase row types,
 * e.g. `createClient<{ jobs: Job }>(...)` types `client.db.jobs`.
 * Throws FieldAssistError VALIDATION_ERROR on a missing projectId/baseUrl or a secret key in a browser.
 */
export function createClient<Tables = UntypedTables>(options: ClientOptions): FieldAssistClient<Tables> {
  const invalid = (message: string) => new FieldAssistError({ message, code: 'VALIDATION_ERROR', status: 0 });
  if (!options.projectId) throw invalid('projectId is required');
  if (!options.baseUrl) throw invalid('baseUrl is required');
  if (options.secretKey && isBrowser()) {
    throw invalid('secretKey is server-only. Do not provide it in browser clients.');
  }
  const http = createHttpCore(options);
  return { projectId: options.projectId, db: createDb<Tables>(http, options.projectId) };
}
