// `client.analytics` (PLATFORM_API.md section 9, SPEC.md section 9): pageviews and custom
// events, batched to POST /api/analytics/{pid}/log. Active only in browsers that allow tracking.
import { detectChannel, readUtm, UTM_KEYS } from './channel.js';
import { browserWindow, watchPage } from './page.js';
import { createEventQueue } from './queue.js';
import { fitsServerLimits, sanitizeData } from './sanitize.js';
import { createSessionTracker, rememberAttribution, safeStorage, storageKeys } from './session.js';
import type { AnalyticsClient, AnalyticsEvent, AnalyticsOptions, AnalyticsStorage, AnalyticsWindow } from './types.js';

const SEND_TIMEOUT_MS = 30_000;

const inactive: AnalyticsClient = {
  log: () => undefined,
  flush: async () => undefined,
  disable: () => undefined,
  enable: () => undefined,
  isEnabled: () => false,
  clearAttribution: () => undefined,
  destroy: () => undefined,
};

function localStorageOf(win: AnalyticsWindow): AnalyticsStorage | undefined {
  try {
    return win.localStorage; // reading it throws where site data is blocked
  } catch {
    return undefined;
  }
}

/**
 * Starts analytics for a page: restores the stored queue, logs the first pageview (unless
 * the page set `__BLINK_ANALYTICS_PRESENT`) and one on every history change. Outside a
 * browser, or with `navigator.doNotTrack === '1'`, returns a client that does nothing.
 */
export function createAnalytics(options: AnalyticsOptions): AnalyticsClient {
  const win = options.window === undefined ? browserWindow() : options.window;
  if (!win || win.navigator?.doNotTrack === '1') return inactive;

  const { projectId, http } = options;
  const now = options.now ?? (() => Date.now());
  const keys = storageKeys(projectId);
  const store = safeStorage(options.storage ?? localStorageOf(win));
  const sessionAt = createSessionTracker(store, keys.session, options.random ?? Math.random);
  const timers = options.timers ?? {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h) => globalThis.clearTimeout(h as number),
  };
  const queue = createEventQueue({
    store,
    key: keys.queue,
    timers,
    // A server that takes the request and never answers must not hold the queue for good.
    send: async (events) => {
      const controller = new AbortController();
      const timeout = timers.setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
      try {
        await http.request({
          method: 'POST',
          path: `/analytics/${encodeURIComponent(projectId)}/log`,
          body: { events },
          signal: controller.signal,
        });
      } finally {
        timers.clearTimeout(timeout);
      }
    },
  });

  // The landing URL's UTM values win; remembered ones from earlier visits fill the gaps.
  const landing = readUtm(win.location.search);
  let attribution = rememberAttribution(store, keys.attribution, landing);
  const referrer = win.document.referrer || null;
  const channel = detectChannel(landing.utm_medium, referrer);
  let enabled = true;
  let destroyed = false;

  const buildEvent = (type: string, custom: Record<string, unknown>): AnalyticsEvent => {
    const at = now();
    const user = options.getUser?.() ?? null;
    const utm = Object.fromEntries(UTM_KEYS.map((key) => [key, attribution[key] ?? null]));
    return {
      type,
      timestamp: new Date(at).toISOString(),
      project_id: projectId,
      user_id: user?.id ?? null,
      user_email: user?.email ?? null,
      session_id: sessionAt(at),
      pathname: win.location.pathname,
      referrer,
      screen_width: typeof win.innerWidth === 'number' ? Math.round(win.innerWidth) : null,
      channel,
      ...utm,
      ...custom,
    };
  };

  const log = (type: string, data: Record<string, unknown> = {}) => {
    if (!enabled) return;
    const custom = typeof data === 'object' && data !== null ? (sanitizeData(data) as Record<string, unknown>) : {};
    // The server would refuse the whole batch for it; losing one event is the lesser harm.
    if (!fitsServerLimits(custom)) return;
    queue.add(buildEvent(type, custom));
  };

  const unwatch = watchPage(win, { onNavigate: () => log('pageview'), onHide: () => void queue.flush() });
  if (!win.__BLINK_ANALYTICS_PRESENT) log('pageview');

  return {
    log,
    flush: () => queue.flush(),
    disable() {
      enabled = false;
      queue.stop();
    },
    enable() {
      if (destroyed) return;
      enabled = true;
      queue.resume();
    },
    isEnabled: () => enabled,
    clearAttribution() {
      attribution = { ...landing }; // this page's own URL still says where the visit came from
      store.remove(keys.attribution);
    },
    destroy() {
      destroyed = true;
      enabled = false;
      queue.stop();
      unwatch();
    },
  };
}
