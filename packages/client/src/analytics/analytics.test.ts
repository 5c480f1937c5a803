// `client.analytics` in a fake page: batching, timing, persistence, retries, do-not-track,
// pageviews on history changes (PLATFORM_API.md section 9).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FieldAssistNetworkError, FieldAssistValidationError } from '../errors.js';
import type { memoryStore } from './fake-page.js';
import { fakeHttp, fakePage, type FakePageOptions } from './fake-page.js';
import { createAnalytics } from './index.js';
import type { AnalyticsOptions } from './types.js';

const QUEUE_KEY = 'blinkAnalyticsQueue_fieldassist';
const T0 = Date.parse('2025-01-20T10:30:00.000Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

function start(href = 'https://app.test/jobs', page: FakePageOptions = {}, options: Partial<AnalyticsOptions> = {}) {
  const fake = fakePage(href, page);
  const server = fakeHttp();
  const analytics = createAnalytics({
    http: server.http,
    projectId: 'fieldassist',
    window: fake.win,
    getUser: () => ({ id: 'u1', email: 'a@b.c' }),
    ...options,
  });
  return { ...fake, ...server, analytics, storage: fake.win.localStorage as ReturnType<typeof memoryStore> };
}

const networkDown = () =>
  new FieldAssistNetworkError({ message: 'Network request failed', code: 'NETWORK_ERROR', status: 0 });

describe('events and batching', () => {
  it('queues a pageview at start with the standard snake_case fields, sent 3 s later', async () => {
    const { batches } = start('https://app.test/jobs?tab=2', {
      referrer: 'https://www.google.com/search?q=pump',
      innerWidth: 1440,
    });
    await vi.advanceTimersByTimeAsync(2999);
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toEqual([
      [
        {
          type: 'pageview',
          timestamp: '2025-01-20T10:30:00.000Z',
          project_id: 'fieldassist',
          user_id: 'u1',
          user_email: 'a@b.c',
          session_id: expect.stringMatching(/^sess_\d+_[0-9a-z]{8}$/),
          pathname: '/jobs',
          referrer: 'https://www.google.com/search?q=pump',
          screen_width: 1440,
          channel: 'Organic Search',
          utm_source: null,
          utm_medium: null,
          utm_campaign: null,
          utm_content: null,
          utm_term: null,
        },
      ],
    ]);
  });

  it('sends at once when 10 events are queued, in batches of at most 10', async () => {
    const { analytics, batches } = start();
    for (let i = 1; i < 25; i++) analytics.log('tap', { i });
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b.length)).toEqual([10, 10]);
    await vi.advanceTimersByTimeAsync(3000);
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(batches.flat().map((e) => e.i ?? 0)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('spreads the custom data over the standard fields, cut and with arrays as objects', async () => {
    const { analytics, batches } = start();
    analytics.log('job_opened', {
      type: 'custom_type',
      note: 'n'.repeat(300),
      exact: 'e'.repeat(256),
      parts: ['a', { sku: 's'.repeat(257) }],
      when: new Date(T0),
    });
    await analytics.flush();
    expect(batches[0]![1]).toMatchObject({
      type: 'custom_type',
      note: `${'n'.repeat(253)}...`,
      exact: 'e'.repeat(256),
      parts: { 0: 'a', 1: { sku: `${'s'.repeat(253)}...` } },
      when: '2025-01-20T10:30:00.000Z',
    });
  });

  it('drops an event whose custom data the server would refuse, so the batch still goes', async () => {
    const { analytics, batches } = start();
    analytics.log('huge', {
      blob: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'x'.repeat(200)])),
    });
    analytics.log('many', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])));
    analytics.log('fine');
    await analytics.flush();
    expect(batches[0]!.map((e) => e.type)).toEqual(['pageview', 'fine']);
  });

  it('flushes when the page is hidden or left', async () => {
    const { analytics, batches, hide, emit } = start();
    hide();
    await vi.advanceTimersByTimeAsync(0);
    expect(batches).toHaveLength(1);
    analytics.log('tap');
    emit('pagehide');
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.map((b) => b[0]!.type)).toEqual(['pageview', 'tap']);
  });
});

describe('pageviews', () => {
  it('logs a pageview on pushState, replaceState and popstate, with the new path', async () => {
    const { analytics, batches, win, back } = start();
    win.history.pushState(null, '', '/jobs/42');
    win.history.replaceState(null, '', '/jobs/42?tab=notes');
    back('/jobs');
    await analytics.flush();
    expect(batches[0]!.map((e) => [e.type, e.pathname])).toEqual([
      ['pageview', '/jobs'],
      ['pageview', '/jobs/42'],
      ['pageview', '/jobs/42'],
      ['pageview', '/jobs'],
    ]);
  });

  it('skips the first pageview when the page tracks it itself, and destroy() undoes the hooks', async () => {
    const fake = fakePage('https://app.test/');
    const pushState = fake.win.history.pushState;
    Object.assign(fake.win, { __BLINK_ANALYTICS_PRESENT: true });
    const server = fakeHttp();
    const analytics = createAnalytics({ http: server.http, projectId: 'fieldassist', window: fake.win });
    expect(fake.win.history.pushState).not.toBe(pushState);
    analytics.destroy();
    expect(fake.win.history.pushState).toBe(pushState);
    expect(
      fake.listenerCount('popstate') + fake.listenerCount('pagehide') + fake.listenerCount('visibilitychange'),
    ).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.batches).toEqual([]);
  });
});

describe('when not to track', () => {
  it('does nothing when the browser says do-not-track', async () => {
    const { analytics, batches, storage, win, listenerCount } = start('https://app.test/', { doNotTrack: '1' });
    analytics.log('tap');
    await analytics.flush();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(analytics.isEnabled()).toBe(false);
    expect(batches).toEqual([]);
    expect(storage.data.size).toBe(0);
    expect(listenerCount('popstate')).toBe(0);
    expect(win.history.pushState.name).toBe('setUrl');
  });

  it('does nothing outside a browser', async () => {
    const server = fakeHttp();
    const analytics = createAnalytics({ http: server.http, projectId: 'fieldassist' });
    analytics.log('tap');
    await analytics.flush();
    expect(analytics.isEnabled()).toBe(false);
    expect(server.batches).toEqual([]);
  });

  it('stops logging while disabled, and resumes with enable()', async () => {
    const { analytics, batches } = start();
    analytics.disable();
    analytics.log('ignored');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(batches).toEqual([]);
    analytics.enable();
    analytics.log('counted');
    await vi.advanceTimersByTimeAsync(3000);
    expect(batches[0]!.map((e) => e.type)).toEqual(['pageview', 'counted']);
  });
});

describe('persistence and retries', () => {
  it('keeps the queue in localStorage until the server has it, and a new page sends what is left', async () => {
    const first = start();
    first.analytics.log('tap');
    expect(JSON.parse(first.storage.data.get(QUEUE_KEY)!).map((e: { type: string }) => e.type)).toEqual([
      'pageview',
      'tap',
    ]);
    first.state.hang = true; // the page closes while the batch is in flight
    void first.analytics.flush();
    expect(JSON.parse(first.storage.data.get(QUEUE_KEY)!)).toHaveLength(2);
    first.analytics.destroy();

    const second = start('https://app.test/', { localStorage: first.storage });
    await vi.advanceTimersByTimeAsync(3000);
    expect(second.batches[0]!.map((e) => e.type)).toEqual(['pageview', 'tap', 'pageview']);
    expect(second.storage.data.has(QUEUE_KEY)).toBe(false);
  });

  it('re-queues a failed batch and retries, backing off from 3 s', async () => {
    const { analytics, batches, state, storage } = start();
    state.fail = networkDown;
    await vi.advanceTimersByTimeAsync(3000); // first try fails
    analytics.log('tap');
    await vi.advanceTimersByTimeAsync(3000); // second try fails
    state.fail = null;
    await vi.advanceTimersByTimeAsync(5999);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches[0]!.map((e) => e.type)).toEqual(['pageview', 'tap']);
    expect(storage.data.has(QUEUE_KEY)).toBe(false);
  });

  it('gives up on a request that never answers after 30 s, and sends the batch again', async () => {
    const { batches, state } = start();
    state.hang = true;
    await vi.advanceTimersByTimeAsync(3000 + 30_000);
    state.hang = false;
    await vi.advanceTimersByTimeAsync(3000);
    expect(batches).toHaveLength(1);
  });

  it('drops a batch the server refuses as invalid instead of retrying it forever', async () => {
    const { analytics, batches, state } = start();
    state.fail = () =>
      new FieldAssistValidationError({ message: 'body.events.0.type: bad', code: 'VALIDATION_ERROR', status: 400 });
    await vi.advanceTimersByTimeAsync(3000);
    state.fail = null;
    analytics.log('next');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches.map((b) => b.map((e) => e.type))).toEqual([['next']]);
  });

  it('keeps at most 200 events while the server is down, dropping the oldest', async () => {
    const { analytics, batches, state, storage } = start();
    state.fail = networkDown;
    for (let i = 0; i < 300; i++) analytics.log('tap', { i });
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(JSON.parse(storage.data.get(QUEUE_KEY)!)).toHaveLength(200);
    state.fail = null;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(batches).toHaveLength(20);
    expect(batches.flat().map((e) => e.i)).toEqual(Array.from({ length: 200 }, (_, i) => i + 100));
  });
});
