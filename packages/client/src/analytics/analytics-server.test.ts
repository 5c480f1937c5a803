// `client.analytics` against the real server: a batch lands in analytics_events, credited
// to the signed-in user whatever the event says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../../apps/server/src/test-support/test-server.js';
import { signUpUser, type TestUser } from '../../../../apps/server/src/test-support/users.js';
import { createHttpCore } from '../http.js';
import { fakePage } from './fake-page.js';
import { createAnalytics } from './index.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUpUser(server.app);
});
afterAll(() => server?.close());

/** Reads the stored events with the service key's raw SQL. */
async function storedEvents(sessionId: string) {
  const service = createHttpCore({ baseUrl: server.url, secretKey: server.serviceKey });
  const query =
    'SELECT type, user_id, session_id, pathname, channel, utm_source, properties FROM analytics_events WHERE session_id = ? ORDER BY id';
  const { data } = await service.request<{ rows: Record<string, unknown>[] }>({
    method: 'POST',
    path: `/db/${server.projectId}/sql`,
    body: { query, params: [sessionId] },
  });
  return data.rows;
}

describe('client.analytics on the real server', () => {
  it('sends a batch that lands in analytics_events with the signed-in user', async () => {
    const http = createHttpCore({ baseUrl: server.url, getAccessToken: () => alice.accessToken });
    const page = fakePage('https://app.test/jobs?utm_source=qr&utm_medium=email', {
      referrer: 'https://mail.example.com/',
    });
    const analytics = createAnalytics({
      http,
      projectId: server.projectId,
      window: page.win,
      getUser: () => ({ id: 'spoofed', email: 'x@y.z' }),
    });
    analytics.log('job_opened', { jobId: 'j-42', note: 'n'.repeat(300) });
    await analytics.flush();
    analytics.destroy();

    const sessionId = JSON.parse(page.win.localStorage!.getItem(`blinkAnalyticsSession_${server.projectId}`)!)
      .id as string;
    expect(page.win.localStorage!.getItem(`blinkAnalyticsQueue_${server.projectId}`)).toBeNull();
    expect(await storedEvents(sessionId)).toEqual([
      {
        type: 'pageview',
        user_id: alice.id,
        session_id: sessionId,
        pathname: '/jobs',
        channel: 'Email',
        utm_source: 'qr',
        properties: {},
      },
      {
        type: 'job_opened',
        user_id: alice.id,
        session_id: sessionId,
        pathname: '/jobs',
        channel: 'Email',
        utm_source: 'qr',
        properties: { jobId: 'j-42', note: `${'n'.repeat(253)}...` },
      },
    ]);
  });
});
