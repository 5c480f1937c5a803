// The public shapes of `client.auth` (PLATFORM_API.md §2.1, §2.2, §2.12).

/** A token set as stored under `blink_tokens_{projectId}`; durations in seconds. */
export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  /** Access-token lifetime; missing means the client never sees it expire (§2.1). */
  expires_in?: number;
  refresh_expires_in?: number;
  /** Unix seconds, added by the client when the set arrives. */
  issued_at: number;
}

/** The signed-in user as `/api/auth/me` returns it; extra fields pass through. */
export interface AuthUser {
  id: string;
  email: string;
  displayName?: string | null;
  photoURL?: string | null;
  emailVerified?: boolean;
  createdAt?: string;
  lastSignInAt?: string;
  role?: string | null;
  [field: string]: unknown;
}

/** What `onAuthStateChanged` listeners see. `isAuthenticated` is exactly "a user is present". */
export interface AuthState {
  user: AuthUser | null;
  isLoading: boolean;
  isAuthenticated: boolean;
}

export interface RoleDefinition {
  permissions: string[];
  inherit?: string[];
}

/** Role name → permissions ('*', 'action' or 'action.resource') and roles it inherits. */
export type RoleConfig = Record<string, RoleDefinition>;

/** Web Storage or an async equivalent (React Native's AsyncStorage). */
export interface StorageLike {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

export interface AuthOptions {
  /** 'managed' (default): sign-in on the hosted /auth page. 'headless': the app's own forms. */
  mode?: 'managed' | 'headless';
  /** Redirects to the hosted sign-in page whenever there is no valid session. */
  authRequired?: boolean;
  /** Where the hosted page returns to; defaults to the current page. */
  redirectUrl?: string;
  roles?: RoleConfig;
  /** Where tokens persist; defaults to localStorage in a browser and nothing elsewhere. */
  storage?: StorageLike;
}

export type AuthProvider = 'google' | 'github' | 'apple' | 'microsoft' | 'email' | 'twitter' | 'linkedin' | 'discord';

export interface SignUpData {
  email: string;
  password: string;
  displayName?: string;
  [field: string]: unknown;
}

export interface RedirectOptions {
  redirectUrl?: string;
}

export type AuthStateListener = (state: AuthState) => void;
