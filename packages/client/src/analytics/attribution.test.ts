// Where a visit came from (channel, UTM attribution) and which session it belongs to.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { detectChannel } from './channel.js';
import { fakeHttp, fakePage, memoryStore } from './fake-page.js';
import { createAnalytics } from './index.js';
import { newSessionId } from './session.js';
import type { AnalyticsEvent } from './types.js';

const SESSION_KEY = 'blinkAnalyticsSession_fieldassist';
const ATTRIBUTION_KEY = 'blinkAnalyticsAttribution_fieldassist';
const T0 = Date.parse('2025-01-20T10:30:00.000Z');

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

/** Opens `href` on a page sharing `storage`, logs `types`, and returns what was sent. */
async function visit(
  href: string,
  storage: ReturnType<typeof memoryStore>,
  referrer = '',
  types: string[] = [],
): Promise<AnalyticsEvent[]> {
  const page = fakePage(href, { referrer, localStorage: storage });
  const server = fakeHttp();
  const analytics = createAnalytics({ http: server.http, projectId: 'fieldassist', window: page.win });
  for (const type of types) analytics.log(type);
  await analytics.flush();
  analytics.destroy();
  return server.batches.flat();
}

describe('detectChannel', () => {
  it.each([
    ['cpc', 'https://www.google.com/', 'Paid Search'],
    ['ppc', '', 'Paid Search'],
    ['email', '', 'Email'],
    ['social', '', 'Social'],
    ['referral', '', 'Referral'],
    ['display', '', 'Display'],
    ['affiliate', '', 'Affiliate'],
    ['newsletter', '', 'Direct'],
    ['constructor', '', 'Direct'],
    [null, '', 'Direct'],
    [null, 'https://www.google.com/', 'Organic Search'],
    [null, 'https://google.co.uk/', 'Organic Search'],
    [null, 'https://www.bing.com/search', 'Organic Search'],
    [null, 'https://search.yahoo.com/', 'Organic Search'],
    [null, 'https://duckduckgo.com/', 'Organic Search'],
    [null, 'https://www.baidu.com/', 'Organic Search'],
    [null, 'https://yandex.ru/', 'Organic Search'],
    [null, 'https://m.facebook.com/', 'Social'],
    [null, 'https://twitter.com/x', 'Social'],
    [null, 'https://www.linkedin.com/feed', 'Social'],
    [null, 'https://www.instagram.com/', 'Social'],
    [null, 'https://www.youtube.com/', 'Social'],
    [null, 'https://www.tiktok.com/', 'Social'],
    [null, 'https://old.reddit.com/', 'Social'],
    [null, 'https://mail.example.com/', 'Email'],
    [null, 'https://outlook.live.com/', 'Email'],
    [null, 'https://gmail.com/', 'Email'],
    [null, 'https://notgoogle.com/', 'Referral'],
    [null, 'https://supplier.example/parts', 'Referral'],
    [null, 'not a url', 'Direct'],
  ])('utm_medium %s, referrer %s: %s', (medium, referrer, channel) => {
    expect(detectChannel(medium, referrer)).toBe(channel);
  });
});

describe('UTM attribution', () => {
  it('reads the landing URL, remembers it, and falls back to it on later visits; the current URL wins', async () => {
    const storage = memoryStore();
    const [landing] = await visit('https://app.test/?utm_source=news&utm_medium=email&utm_campaign=spring', storage);
    expect(landing).toMatchObject({
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_content: null,
      channel: 'Email',
    });
    expect(JSON.parse(storage.data.get(ATTRIBUTION_KEY)!)).toEqual({
      utm_source: 'news',
      utm_medium: 'email',
      utm_campaign: 'spring',
    });

    const [later] = await visit('https://app.test/jobs', storage);
    expect(later).toMatchObject({ utm_source: 'news', utm_medium: 'email', utm_campaign: 'spring', channel: 'Direct' });

    const [again] = await visit('https://app.test/?utm_source=ads&utm_term=pump', storage);
    expect(again).toMatchObject({ utm_source: 'ads', utm_medium: 'email', utm_campaign: 'spring', utm_term: 'pump' });
  });
});

describe('sessions', () => {
  it('names a session sess_<ms>_<8 base36 characters>', () => {
    expect(newSessionId(T0, () => 0.5)).toBe(`sess_${T0}_iiiiiiii`);
    expect(newSessionId(T0, Math.random)).toMatch(/^sess_\d{13}_[0-9a-z]{8}$/);
  });

  it('keeps the session across pages within 30 minutes without events, and starts a new one after', async () => {
    const storage = memoryStore();
    const [first] = await visit('https://app.test/', storage);
    expect(JSON.parse(storage.data.get(SESSION_KEY)!)).toEqual({
      id: first!.session_id,
      startedAt: T0,
      lastActivityAt: T0,
    });

    vi.setSystemTime(T0 + 30 * 60_000);
    const [second] = await visit('https://app.test/', storage);
    expect(second!.session_id).toBe(first!.session_id);

    vi.setSystemTime(T0 + 60 * 60_000 + 1);
    const [third] = await visit('https://app.test/', storage);
    expect(third!.session_id).not.toBe(first!.session_id);
    expect(JSON.parse(storage.data.get(SESSION_KEY)!)).toMatchObject({
      id: third!.session_id,
      startedAt: T0 + 60 * 60_000 + 1,
    });
  });

  it('still has one session per page when storage is unavailable', async () => {
    const broken = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
      removeItem: () => undefined,
    };
    const page = fakePage('https://app.test/');
    const server = fakeHttp();
    const analytics = createAnalytics({
      http: server.http,
      projectId: 'fieldassist',
      window: page.win,
      storage: broken,
    });
    analytics.log('tap');
    await analytics.flush();
    const [a, b] = server.batches[0]!;
    expect(a!.session_id).toMatch(/^sess_/);
    expect(b!.session_id).toBe(a!.session_id);
  });
});
