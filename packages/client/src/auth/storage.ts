// Where the token set persists (PLATFORM_API.md §2.1): localStorage in a browser, a no-op
// elsewhere, or the app's own adapter. Storage failures (quota, private mode) never throw.
import { nowSeconds, parseStoredTokens } from './tokens.js';
import type { AuthUser, StorageLike, TokenSet } from './types.js';

export function tokenStorageKey(projectId: string): string {
  return `blink_tokens_${projectId}`;
}

const noopStorage: StorageLike = {
  getItem: () => null,
  setItem: () => undefined,
  removeItem: () => undefined,
};

/** localStorage when it exists and accepts writes, otherwise a store that keeps nothing. */
export function defaultStorage(): StorageLike {
  try {
    if (typeof window === 'undefined' || typeof localStorage === 'undefined') return noopStorage;
    localStorage.setItem('__fieldassist_probe__', '1');
    localStorage.removeItem('__fieldassist_probe__');
    return localStorage;
  } catch {
    return noopStorage;
  }
}

export interface TokenStore {
  readonly key: string;
  read(): Promise<TokenSet | null>;
  write(tokens: TokenSet): Promise<void>;
  /** The user of the stored tokens, kept so the app opens signed in with no network. */
  readUser(): Promise<AuthUser | null>;
  writeUser(user: AuthUser): Promise<void>;
  /** Removes the tokens and the user. */
  clear(): void;
}

export function createTokenStore(storage: StorageLike, key: string): TokenStore {
  const userKey = `${key}_user`;
  return {
    key,
    async read() {
      try {
        return parseStoredTokens(await storage.getItem(key), nowSeconds());
      } catch {
        return null;
      }
    },
    async write(tokens) {
      try {
        await storage.setItem(key, JSON.stringify(tokens));
      } catch {
        // The session still works in this page; it just will not survive a reload.
      }
    },
    async readUser() {
      try {
        const user = JSON.parse((await storage.getItem(userKey)) ?? 'null') as AuthUser | null;
        return typeof user?.id === 'string' && typeof user.email === 'string' ? user : null;
      } catch {
        return null;
      }
    },
    async writeUser(user) {
      try {
        await storage.setItem(userKey, JSON.stringify(user));
      } catch {
        // Only the offline start needs it.
      }
    },
    clear() {
      for (const name of [key, userKey]) {
        try {
          void Promise.resolve(storage.removeItem(name)).catch(() => undefined);
        } catch {
          // Nothing stored that could be removed.
        }
      }
    },
  };
}
