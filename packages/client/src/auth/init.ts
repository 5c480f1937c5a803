// Where a session comes from when the client starts (PLATFORM_API.md §2.3): a parent window
// (§2.10), the page URL, then storage; and how other tabs keep it in step (§2.11).
import type { Session } from './session.js';
import type { TokenStore } from './storage.js';
import { nowSeconds, parseStoredTokens, toTokenSet } from './tokens.js';
import { authError } from './errors.js';
import { OAUTH_STATE_KEY, tokensFromSearch, URL_AUTH_PARAMS, withoutParams } from './url-session.js';

/** How long an embedded app waits for its parent's tokens (SPEC.md §9). */
export const PARENT_TOKENS_WAIT_MS = 100;

export interface InitContext {
  session: Session;
  store: TokenStore;
  /** Undefined outside a browser: only storage is consulted then. */
  win: Window | undefined;
  projectId: string;
  trustedOrigins: string[];
  authRequired: boolean;
  login: () => void;
}

export function isEmbedded(win: Window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    return true; // a cross-origin top frame refuses the comparison
  }
}

/**
 * Asks the parent window for tokens and obeys its BLINK_AUTH_TOKENS / BLINK_AUTH_LOGOUT
 * messages (trusted origins only, and only from the parent itself). Returns the pending
 * application of the parent's tokens, if any arrived.
 */
export function listenToParent(ctx: InitContext, win: Window): () => Promise<void> | null {
  let applying: Promise<void> | null = null;
  win.addEventListener('message', (event: MessageEvent) => {
    if (!ctx.trustedOrigins.includes(event.origin) || event.source !== win.parent) return;
    const data = event.data as { type?: unknown; tokens?: unknown } | null;
    if (data?.type === 'BLINK_AUTH_TOKENS') {
      const tokens = toTokenSet(data.tokens, nowSeconds(), true);
      if (tokens) applying = ctx.session.apply(tokens, { persist: false });
    } else if (data?.type === 'BLINK_AUTH_LOGOUT') {
      ctx.session.clear();
    }
  });
  win.parent.postMessage({ type: 'BLINK_REQUEST_AUTH_TOKENS', projectId: ctx.projectId }, '*');
  return () => applying;
}

/** Another tab wrote new tokens: use them here (without writing them back); removed: sign out. */
export function listenToOtherTabs(ctx: InitContext, win: Window): void {
  win.addEventListener('storage', (event: StorageEvent) => {
    if (event.key !== null && event.key !== ctx.store.key) return;
    const tokens = event.key === null ? null : parseStoredTokens(event.newValue, nowSeconds());
    if (tokens) void ctx.session.apply(tokens, { persist: false });
    else if (ctx.session.tokens) ctx.session.clear();
  });
}

/**
 * Tokens in `?access_token=...`: taken, removed from the address bar at once, then used. When
 * this tab started the sign-in, tokens with another state were not meant for it. A missing
 * state is accepted: PLATFORM_API.md 2.3 and 2.8 check none on this path (SPEC.md section 5
 * holds only the popup's message to an equal state).
 */
async function sessionFromUrl(ctx: InitContext, win: Window): Promise<boolean> {
  const tokens = tokensFromSearch(win.location.search, nowSeconds());
  if (!tokens) return false;
  const returnedState = new URLSearchParams(win.location.search).get('state');
  try {
    win.history.replaceState(win.history.state, '', withoutParams(win.location.href, URL_AUTH_PARAMS));
  } catch {
    // A sandboxed frame may refuse; the session is still good.
  }
  const sentState = takeSentState(win);
  if (returnedState && sentState && returnedState !== sentState)
    throw authError('VERIFICATION_FAILED', 'State mismatch');
  await ctx.session.apply(tokens, { persist: true });
  return true;
}

/** The state of the sign-in this tab started, forgotten once read. */
function takeSentState(win: Window): string | null {
  try {
    const state = win.sessionStorage.getItem(OAUTH_STATE_KEY);
    win.sessionStorage.removeItem(OAUTH_STATE_KEY);
    return state;
  } catch {
    return null;
  }
}

/** Runs once per client; `isLoading` is true until it ends. */
export async function initialize(ctx: InitContext, parentTokens?: () => Promise<void> | null): Promise<void> {
  const { session, win } = ctx;
  session.setLoading(true);
  try {
    if (parentTokens) {
      await new Promise((resolve) => setTimeout(resolve, PARENT_TOKENS_WAIT_MS));
      const applying = parentTokens();
      if (applying) return await applying;
    }
    if (win && (await sessionFromUrl(ctx, win))) return;
    const stored = await ctx.store.read();
    if (stored && !session.tokens) {
      if (await session.validate(stored)) return;
      if (session.tokens === stored) session.clear(); // not when a sign-in replaced it meanwhile
    }
    if (ctx.authRequired && win && !session.tokens) ctx.login();
  } finally {
    session.setLoading(false);
  }
}
