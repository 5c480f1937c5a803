// The public surface of `client.auth`. Every failure is a FieldAssistAuthError whose `code`
// is one of SPEC.md §8 and whose `userMessage` is the matching text.
import type {
  AuthProvider,
  AuthState,
  AuthStateListener,
  AuthUser,
  RedirectOptions,
  SignUpData,
  TokenSet,
} from './types.js';

export interface AuthClient {
  /** Headless only. Creates the account and signs in; resolves with the user. */
  signUp(data: SignUpData): Promise<AuthUser>;
  /** Headless only. Throws INVALID_CREDENTIALS, EMAIL_NOT_VERIFIED, RATE_LIMITED, ... */
  signInWithEmail(email: string, password: string): Promise<AuthUser>;
  /**
   * Headless only, browser only. A popup of the hosted page (30 s limit); falls back to a
   * full-page redirect (the promise then never settles) when embedded or isolated.
   */
  signInWithProvider(provider: AuthProvider, options?: RedirectOptions): Promise<AuthUser>;
  signInWithGoogle(options?: RedirectOptions): Promise<AuthUser>;
  signInWithGitHub(options?: RedirectOptions): Promise<AuthUser>;
  signInWithApple(options?: RedirectOptions): Promise<AuthUser>;
  signInWithMicrosoft(options?: RedirectOptions): Promise<AuthUser>;
  /**
   * Both modes: goes to the hosted page `/auth?redirect_url=&project_id=&state=` (and `provider=`
   * when one is chosen); the state is kept in this tab and checked on the return (no-op outside a browser).
   */
  login(nextUrl?: string, options?: { provider?: AuthProvider }): void;
  /** Signs out here (all tabs) and asks the server to revoke the refresh token; then optionally navigates. */
  logout(redirectUrl?: string): Promise<void>;
  signOut(): Promise<void>;
  /** The signed-in user, once start-up is done; waits up to 5 s (AUTH_TIMEOUT) for one. */
  me(): Promise<AuthUser>;
  /** The user now, without waiting (null while signed out or loading). */
  currentUser(): AuthUser | null;
  isAuthenticated(): boolean;
  updateMe(updates: Partial<AuthUser>): Promise<AuthUser>;
  /** Renews the tokens now (one refresh at a time); true on success. */
  refresh(): Promise<boolean>;
  /** The access token, refreshed first if it expires within 30 s; null when signed out. */
  getValidToken(): Promise<string | null>;
  /** Uses tokens obtained elsewhere (deep link, test); `issued_at` defaults to now. */
  setSession(
    tokens: Omit<TokenSet, 'issued_at'> & { issued_at?: number },
    options?: { persist?: boolean },
  ): Promise<AuthUser | null>;
  sendMagicLink(email: string, options?: RedirectOptions): Promise<void>;
  /** Token from the argument, else the page's `magic_token` or `token` parameter. */
  verifyMagicLink(token?: string): Promise<AuthUser>;
  sendPasswordResetEmail(email: string, options?: RedirectOptions): Promise<void>;
  confirmPasswordReset(token: string, newPassword: string): Promise<void>;
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  sendEmailVerification(): Promise<void>;
  verifyEmail(token: string): Promise<void>;
  /** Deletes the signed-in account, then signs out. */
  deleteAccount(): Promise<void>;
  /** The project's sign-in methods; ['email', 'google'] when they cannot be read. */
  getAvailableProviders(): Promise<string[]>;
  /** Called at once with the current state, then on every change. Returns the unsubscribe. */
  onAuthStateChanged(listener: AuthStateListener): () => void;
  /** The current state snapshot. */
  getState(): AuthState;
  hasRole(role: string | readonly string[]): boolean;
  /** Per `auth.roles`: '*', 'action.resource' or 'action', inherited roles included. */
  can(action: string, resource?: string): boolean;
  /** Resolves when start-up (parent window, URL, storage) is done. */
  ready(): Promise<void>;
  /** Asks for a new token after a 401 (for the HTTP core); null when none could be had. */
  forceRefresh(): Promise<string | null>;
}
