// Provider sign-in in a popup of the hosted page (PLATFORM_API.md §2.8, SPEC.md §5 and §9).
import type { FieldAssistAuthError } from '../errors.js';
import { authError } from './errors.js';
import { mapServerAuthCode } from './error-codes.js';

/** SPEC.md §9: the whole popup sign-in may take 30 s; the popup is checked every second. */
export const POPUP_TIMEOUT_MS = 30_000;
export const POPUP_CLOSED_CHECK_MS = 1_000;
const POPUP_NAME = 'blink-auth';
const POPUP_FEATURES = 'width=500,height=600,scrollbars=yes,resizable=yes';

export interface PopupOptions {
  win: Window;
  /** The hosted-page URL for each mode (they differ only in `mode`). */
  urlFor: (mode: 'popup' | 'redirect') => string;
  trustedOrigins: string[];
  projectId: string;
  /** The state this attempt sent; the answer must carry exactly this one. */
  state: string;
  timeoutMs?: number;
  closedCheckMs?: number;
}

/** What a BLINK_AUTH_TOKENS message carries (token fields at the top level). */
export type PopupTokens = Record<string, unknown>;

/**
 * Opens the popup and resolves with the token message. Rejects with POPUP_CANCELED (blocked
 * or closed), AUTH_TIMEOUT, VERIFICATION_FAILED 'State mismatch', INVALID_CREDENTIALS
 * 'Project ID mismatch' or the page's own BLINK_AUTH_ERROR. When the popup cannot reach
 * its opener the page itself goes to the hosted page instead and the promise stays pending.
 */
export function openAuthPopup(options: PopupOptions): Promise<PopupTokens> {
  const { win } = options;
  return new Promise((resolve, reject) => {
    const popup = win.open(options.urlFor('popup'), POPUP_NAME, POPUP_FEATURES);
    if (!popup) return reject(authError('POPUP_CANCELED', 'Popup was blocked'));
    if (popup.opener === null) {
      // Cross-origin isolation severed the link back: fall back to a full-page redirect.
      popup.close();
      win.location.href = options.urlFor('redirect');
      return;
    }

    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearInterval(closedCheck);
      win.removeEventListener('message', onMessage);
      if (!popup.closed) popup.close();
      outcome();
    };
    const fail = (error: FieldAssistAuthError) => finish(() => reject(error));

    const onMessage = (event: MessageEvent) => {
      if (!options.trustedOrigins.includes(event.origin) || event.source !== popup) return;
      const data = event.data as Record<string, unknown> | null;
      if (data?.type === 'BLINK_AUTH_TOKENS') {
        if (data.state !== options.state) return fail(authError('VERIFICATION_FAILED', 'State mismatch'));
        if (data.projectId !== options.projectId) return fail(authError('INVALID_CREDENTIALS', 'Project ID mismatch'));
        finish(() => resolve(data));
      } else if (data?.type === 'BLINK_AUTH_ERROR') {
        const message = typeof data.message === 'string' && data.message ? data.message : 'Authentication failed';
        fail(authError(mapServerAuthCode(data.code), message, data));
      }
    };

    const timeout = setTimeout(
      () => fail(authError('AUTH_TIMEOUT', 'Authentication timed out')),
      options.timeoutMs ?? POPUP_TIMEOUT_MS,
    );
    const closedCheck = setInterval(() => {
      if (popup.closed) fail(authError('POPUP_CANCELED', 'Authentication was canceled'));
    }, options.closedCheckMs ?? POPUP_CLOSED_CHECK_MS);
    win.addEventListener('message', onMessage);
  });
}
