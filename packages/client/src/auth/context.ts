// What the pieces of `client.auth` share.
import type { AuthApi } from './api.js';
import type { Session } from './session.js';

export interface AuthContext {
  api: AuthApi;
  session: Session;
  projectId: string;
  baseUrl: string;
  /** Undefined outside a browser. */
  win: Window | undefined;
  mode: 'managed' | 'headless';
  trustedOrigins: string[];
}

/** The browser window, or undefined in Node, Deno and workers. */
export function browserWindow(): Window | undefined {
  return typeof window !== 'undefined' && typeof document !== 'undefined' ? window : undefined;
}
