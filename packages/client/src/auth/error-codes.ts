// The auth error codes, their user-facing texts (SPEC.md §8) and how server codes map
// onto them (PLATFORM_API.md §2.6). No imports: errors.ts builds on this table.

/** Default user-facing message per auth code, copied from SPEC.md §8. */
export const AUTH_ERROR_MESSAGES = {
  INVALID_CREDENTIALS: 'Invalid email or password. Please try again.',
  EMAIL_NOT_VERIFIED: 'Please verify your email address before signing in.',
  POPUP_CANCELED: 'Sign-in was canceled. Please try again.',
  NETWORK_ERROR: 'Network error. Please check your connection and try again.',
  RATE_LIMITED: 'Too many attempts. Please wait a moment and try again.',
  AUTH_TIMEOUT: 'Authentication timed out. Please try again.',
  REDIRECT_FAILED: 'Redirect failed. Please try again.',
  TOKEN_EXPIRED: 'Session expired. Please sign in again.',
  USER_NOT_FOUND: 'User not found. Please check your email and try again.',
  EMAIL_ALREADY_EXISTS: 'An account with this email already exists.',
  WEAK_PASSWORD: 'Password is too weak. Please choose a stronger password.',
  INVALID_EMAIL: 'Please enter a valid email address.',
  MAGIC_LINK_EXPIRED: 'Magic link has expired. Please request a new one.',
  VERIFICATION_FAILED: 'Verification failed. Please try again.',
} as const;

export type AuthErrorCode = keyof typeof AUTH_ERROR_MESSAGES;

/** The text for any code outside the table. */
export const GENERIC_AUTH_MESSAGE = 'Authentication error. Please try again.';

/** The user-facing message for a code: the SPEC.md §8 text, else the generic one. */
export function defaultAuthMessage(code: string): string {
  return Object.hasOwn(AUTH_ERROR_MESSAGES, code) ? AUTH_ERROR_MESSAGES[code as AuthErrorCode] : GENERIC_AUTH_MESSAGE;
}

const SERVER_CODES: Record<string, AuthErrorCode> = {
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  'auth/invalid-credential': 'INVALID_CREDENTIALS',
  'auth/wrong-password': 'INVALID_CREDENTIALS',
  'auth/user-not-found': 'INVALID_CREDENTIALS',
  EMAIL_NOT_VERIFIED: 'EMAIL_NOT_VERIFIED',
  'auth/email-not-verified': 'EMAIL_NOT_VERIFIED',
  EMAIL_ALREADY_VERIFIED: 'VERIFICATION_FAILED',
  POPUP_CANCELED: 'POPUP_CANCELED',
  'auth/popup-closed-by-user': 'POPUP_CANCELED',
  NETWORK_ERROR: 'NETWORK_ERROR',
  RATE_LIMITED: 'RATE_LIMITED',
  'auth/too-many-requests': 'RATE_LIMITED',
  AUTH_TIMEOUT: 'AUTH_TIMEOUT',
  REDIRECT_FAILED: 'REDIRECT_FAILED',
  TOKEN_EXPIRED: 'TOKEN_EXPIRED',
  'auth/id-token-expired': 'TOKEN_EXPIRED',
  USER_NOT_FOUND: 'USER_NOT_FOUND',
  EMAIL_ALREADY_EXISTS: 'EMAIL_ALREADY_EXISTS',
  'auth/email-already-in-use': 'EMAIL_ALREADY_EXISTS',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  'auth/weak-password': 'WEAK_PASSWORD',
  INVALID_EMAIL: 'INVALID_EMAIL',
  'auth/invalid-email': 'INVALID_EMAIL',
  MAGIC_LINK_EXPIRED: 'MAGIC_LINK_EXPIRED',
  VERIFICATION_FAILED: 'VERIFICATION_FAILED',
};

/** PLATFORM_API.md §2.6: a server code becomes a client code; unknown or missing codes are NETWORK_ERROR. */
export function mapServerAuthCode(serverCode: unknown): AuthErrorCode {
  if (typeof serverCode !== 'string' || !Object.hasOwn(SERVER_CODES, serverCode)) return 'NETWORK_ERROR';
  return SERVER_CODES[serverCode]!;
}
