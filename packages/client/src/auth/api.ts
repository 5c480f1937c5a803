// The wire calls to `${baseUrl}/api/auth/...` (PLATFORM_API.md §2.5). Plain fetch, not the
// HTTP core: auth answers have their own error reader (§2.6) and no 401 retry.
import type { FetchLike } from '../http.js';
import { authErrorFromResponse, authNetworkError } from './errors.js';
import type { AuthErrorCode } from './error-codes.js';
import type { AuthUser } from './types.js';

export interface AuthCall {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  query?: Record<string, string>;
  /** The message when the error body has none. */
  fallback: string;
  codeWithoutServerCode?: (status: number) => AuthErrorCode;
}

export interface AuthApi {
  /** Sends one call; resolves with the JSON body (undefined for non-JSON success) or throws FieldAssistAuthError. */
  call<T = unknown>(path: string, options: AuthCall): Promise<T>;
  /** `GET /me` that never throws: the user, or the status that refused it (0 = no answer). */
  fetchUser(token: string): Promise<{ user: AuthUser | null; status: number }>;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').includes('application/json');
}

async function readErrorBody(response: Response): Promise<unknown> {
  try {
    return isJson(response) ? await response.json() : { message: await response.text() };
  } catch {
    return {};
  }
}

/** The `user` of an auth answer (`{ user: {...} }`), or null. */
export function userOf(body: unknown): AuthUser | null {
  const user = typeof body === 'object' && body !== null ? (body as { user?: unknown }).user : undefined;
  return typeof user === 'object' && user !== null ? (user as AuthUser) : null;
}

export function createAuthApi(baseUrl: string, fetchImpl: FetchLike): AuthApi {
  const root = `${baseUrl.replace(/\/+$/, '')}/api/auth`;

  const call = async <T>(path: string, options: AuthCall): Promise<T> => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const search = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    const init: RequestInit = { method: options.method ?? 'GET', headers };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    let response: Response;
    try {
      response = await fetchImpl(`${root}${path}${search}`, init);
    } catch (error) {
      throw authNetworkError(error);
    }
    if (!response.ok) {
      throw authErrorFromResponse(
        response.status,
        await readErrorBody(response),
        options.fallback,
        options.codeWithoutServerCode,
      );
    }
    try {
      return (isJson(response) ? await response.json() : undefined) as T;
    } catch (error) {
      throw authNetworkError(error);
    }
  };

  const fetchUser = async (token: string) => {
    try {
      const response = await fetchImpl(`${root}/me`, { method: 'GET', headers: { Authorization: `Bearer ${token}` } });
      if (!response.ok) return { user: null, status: response.status };
      return { user: userOf(await response.json()), status: response.status };
    } catch {
      return { user: null, status: 0 };
    }
  };

  return { call, fetchUser };
}
