// The event queue: batches of 10, sent 3 s after the first event or at once when full,
// persisted so a reload keeps what was not sent, and retried when the server is away.
import { FieldAssistError } from '../errors.js';
import type { SafeStorage } from './session.js';
import type { AnalyticsEvent, AnalyticsTimers } from './types.js';

export const BATCH_SIZE = 10;
export const FLUSH_DELAY_MS = 3000;
/** A dead server must not grow the queue without end: the oldest events go first. */
export const MAX_QUEUED = 200;
const MAX_RETRY_DELAY_MS = 60_000;

export interface EventQueueOptions {
  send(events: AnalyticsEvent[]): Promise<unknown>;
  store: SafeStorage;
  key: string;
  timers: AnalyticsTimers;
}

/** The server refused the batch itself (bad data, too large): sending it again cannot help. */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof FieldAssistError)) return false;
  return error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
}

function loadQueue(store: SafeStorage, key: string): AnalyticsEvent[] {
  const stored = store.read(key);
  if (!Array.isArray(stored)) return [];
  return stored
    .filter(
      (event): event is AnalyticsEvent => typeof event === 'object' && event !== null && typeof event.type === 'string',
    )
    .slice(-MAX_QUEUED);
}

export function createEventQueue({ send, store, key, timers }: EventQueueOptions) {
  let queue = loadQueue(store, key);
  let inFlight: { events: AnalyticsEvent[]; done: Promise<void> } | null = null;
  let timer: unknown = null;
  let failures = 0;
  let stopped = false;

  // The batch being sent stays stored until the server has it: a page closed mid-send resends it.
  const persist = () => {
    const all = [...(inFlight?.events ?? []), ...queue];
    if (all.length === 0) store.remove(key);
    else store.write(key, all);
  };

  const clearTimer = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };

  const schedule = (ms: number) => {
    if (stopped || timer !== null || inFlight) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void flush();
    }, ms);
  };

  const sendBatch = async (events: AnalyticsEvent[]) => {
    try {
      await send(events);
      failures = 0;
    } catch (error) {
      if (isRefusal(error)) failures = 0;
      else {
        queue = [...events, ...queue].slice(-MAX_QUEUED);
        failures += 1;
      }
    }
    inFlight = null;
    persist();
    if (queue.length === 0) return;
    // Retries back off from 3 s to a minute; a full batch waiting goes at once.
    if (failures > 0) schedule(Math.min(FLUSH_DELAY_MS * 2 ** (failures - 1), MAX_RETRY_DELAY_MS));
    else schedule(queue.length >= BATCH_SIZE ? 0 : FLUSH_DELAY_MS);
  };

  /** Sends the next batch now; while one is being sent, waits for that one instead. */
  const flush = (): Promise<void> => {
    if (inFlight) return inFlight.done;
    clearTimer();
    if (stopped || queue.length === 0) return Promise.resolve();
    const events = queue.slice(0, BATCH_SIZE);
    queue = queue.slice(BATCH_SIZE);
    const flight = { events, done: Promise.resolve() };
    inFlight = flight;
    persist();
    flight.done = sendBatch(events);
    return flight.done;
  };

  if (queue.length > 0) schedule(FLUSH_DELAY_MS);

  return {
    add(event: AnalyticsEvent) {
      queue.push(event);
      if (queue.length > MAX_QUEUED) queue = queue.slice(-MAX_QUEUED);
      persist();
      if (queue.length >= BATCH_SIZE && !inFlight) void flush();
      else schedule(FLUSH_DELAY_MS);
    },
    flush,
    /** Timers stopped; the stored queue is kept for the next page. */
    stop() {
      stopped = true;
      clearTimer();
    },
    resume() {
      stopped = false;
      if (queue.length > 0) schedule(FLUSH_DELAY_MS);
    },
    get size() {
      return queue.length + (inFlight?.events.length ?? 0);
    },
  };
}
