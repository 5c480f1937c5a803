import { createAi } from './ai/index.js';
import { createAnalytics } from './analytics/index.js';
import type { AnalyticsClient } from './analytics/types.js';
import type { AiClient } from './ai/types.js';
import type { AuthClient } from './auth/auth-client.js';
import { createAuth } from './auth/index.js';
import type { AuthOptions } from './auth/types.js';
import { createData } from './data/index.js';
import type { DataClient } from './data/types.js';
import { createDb } from './db/index.js';
import type { DbClient, Row } from './db/types.js';
import { FieldAssistValidationError } from './errors.js';
import { createHttpCore, type AccessTokenGetter, type FetchLike } from './http.js';
import { createManuals } from './manuals/index.js';
import type { ManualsClient } from './manuals/types.js';
import { createRealtime } from './realtime/index.js';
import type { RealtimeClient, WebSocketFactory } from './realtime/types.js';
import { createStorage } from './storage/index.js';
import type { StorageClient } from './storage/types.js';

export interface ClientOptions {
  projectId: string;
  /** Origin of the FieldAssist server (`https://host`); requests go to `${baseUrl}/api/...`. */
  baseUrl: string;
  /** The service key, for server-side code only: refused in a browser. */
  secretKey?: string;
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Sign-in and session settings (`mode`, `authRequired`, `redirectUrl`, `roles`, `storage`). */
  auth?: AuthOptions;
  /**
   * Overrides where requests get their access token (ignored when `secretKey` is set).
   * Default: `auth.getValidToken()`, with one refresh-and-retry after a 401.
   */
  getAccessToken?: AccessTokenGetter;
  /** How realtime opens its WebSocket; default the global WebSocket (give Node's `ws` outside browsers). */
  createSocket?: WebSocketFactory;
}

/** Tables of an untyped client: any name, rows as plain records. */
export type UntypedTables = Record<string, Row>;

export interface FieldAssistClient<Tables = UntypedTables> {
  readonly projectId: string;
  readonly auth: AuthClient;
  readonly db: DbClient<Tables>;
  readonly ai: AiClient;
  readonly storage: StorageClient;
  readonly data: DataClient;
  readonly realtime: RealtimeClient;
  readonly analytics: AnalyticsClient;
  /** The product's manual library: upload, review and save (SPEC.md section 4). */
  readonly manuals: ManualsClient;
}

function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}

/**
 * Creates a platform client. `Tables` maps camelCase table names to camelCase row types,
 * e.g. `createClient<{ jobs: Job }>(...)` types `client.db.jobs`.
 * In a browser it starts restoring the session at once (parent window, URL, localStorage).
 * Throws FieldAssistValidationError VALIDATION_ERROR on a missing projectId, a missing or
 * relative baseUrl, or a secret key in a browser.
 */
export function createClient<Tables = UntypedTables>(options: ClientOptions): FieldAssistClient<Tables> {
  const invalid = (message: string) => new FieldAssistValidationError({ message, code: 'VALIDATION_ERROR', status: 0 });
  if (!options.projectId) throw invalid('projectId is required');
  if (!options.baseUrl) throw invalid('baseUrl is required');
  try {
    new URL(options.baseUrl);
  } catch {
    throw invalid('baseUrl must be an absolute URL, e.g. https://host');
  }
  if (options.secretKey && isBrowser()) {
    throw invalid('secretKey is server-only. Do not provide it in browser clients.');
  }
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const auth = createAuth({
    projectId: options.projectId,
    baseUrl: options.baseUrl,
    fetch: fetchImpl,
    auth: options.auth,
  });
  const credentials = {
    secretKey: options.secretKey,
    fetch: fetchImpl,
    getAccessToken: options.getAccessToken ?? (() => auth.getValidToken()),
    // PLATFORM_API.md §1.6: a 401 on a request sent with the user's token → refresh once, retry once.
    refreshAccessToken: options.getAccessToken ? undefined : () => auth.forceRefresh(),
  };
  const http = createHttpCore({ baseUrl: options.baseUrl, ...credentials });
  return {
    projectId: options.projectId,
    auth,
    db: createDb<Tables>(http, options.projectId),
    ai: createAi({ http, projectId: options.projectId, ...credentials }),
    storage: createStorage({ http, projectId: options.projectId, ...credentials }),
    data: createData({ http, projectId: options.projectId }),
    realtime: createRealtime({
      http,
      projectId: options.projectId,
      getAccessToken: async () => options.secretKey ?? (await credentials.getAccessToken()),
      createSocket: options.createSocket,
    }),
    analytics: createAnalytics({ http, projectId: options.projectId, getUser: () => auth.currentUser() }),
    manuals: createManuals({ http, projectId: options.projectId, ...credentials }),
  };
}
