// POST /api/analytics/{pid}/log through the real app and database.
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';
import { signUpUser, type TestUser } from '../test-support/users.js';

let app: FastifyInstance;
let pool: pg.Pool;
let serviceKey: string;
let alice: TestUser;

beforeAll(async () => {
  ({ app, pool, serviceKey } = await buildTestApp());
  alice = await signUpUser(app);
});
afterAll(() => app?.close());

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
let sessions = 0;
/** A session id of the test's own, so each test reads back only its rows. */
const newSession = () => `sess_${Date.now()}_test${++sessions}`;
/** Each post from its own address unless told, so the per-IP limit is measured only where meant. */
const randomIp = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

function post(
  payload: unknown,
  options: { headers?: Record<string, string>; remoteAddress?: string; url?: string } = {},
) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return app.inject({
    method: 'POST',
    url: options.url ?? '/api/analytics/fieldassist/log',
    remoteAddress: options.remoteAddress ?? randomIp(),
    headers: { 'content-type': 'application/json', ...options.headers },
    payload: body,
  });
}

const event = (session: string, extra: Record<string, unknown> = {}) => ({
  type: 'pageview',
  timestamp: '2025-01-20T10:30:00.000Z',
  project_id: 'fieldassist',
  user_id: null,
  user_email: null,
  session_id: session,
  pathname: '/jobs',
  referrer: 'https://www.google.com/',
  screen_width: 1440,
  channel: 'Organic Search',
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_content: null,
  utm_term: null,
  ...extra,
});

async function rowsOf(session: string) {
  const { rows } = await pool.query('SELECT * FROM analytics_events WHERE session_id = $1 ORDER BY id', [session]);
  return rows;
}

describe('POST /api/analytics/:projectId/log', () => {
  it('stores an anonymous batch with its standard columns, custom properties and parsed device', async () => {
    const session = newSession();
    const res = await post(
      { events: [event(session), event(session, { type: 'job_opened', jobId: 'j1', tags: { 0: 'a' } })] },
      { headers: { 'user-agent': IPHONE } },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, count: 2 });
    const [first, second] = await rowsOf(session);
    expect(first).toMatchObject({
      type: 'pageview',
      user_id: null,
      pathname: '/jobs',
      referrer: 'https://www.google.com/',
      screen_width: 1440,
      channel: 'Organic Search',
      utm_source: null,
      device_type: 'mobile',
      browser: 'Safari',
      os: 'iOS',
      properties: {},
    });
    expect((first.occurred_at as Date).toISOString()).toBe('2025-01-20T10:30:00.000Z');
    expect(second).toMatchObject({ type: 'job_opened', properties: { jobId: 'j1', tags: { 0: 'a' } } });
  });

  it("credits the signed-in caller and ignores the body's user_id and user_email", async () => {
    const session = newSession();
    const spoof = { user_id: 'someone-else', user_email: 'boss@example.com' };
    expect((await post({ events: [event(session, spoof)] }, { headers: alice.headers })).statusCode).toBe(200);
    expect((await post({ events: [event(session, spoof)] })).statusCode).toBe(200);
    expect(
      (await post({ events: [event(session, spoof)] }, { headers: { authorization: `Bearer ${serviceKey}` } }))
        .statusCode,
    ).toBe(200);
    const rows = await rowsOf(session);
    expect(rows.map((row) => row.user_id)).toEqual([alice.id, null, null]);
    expect(JSON.stringify(rows)).not.toContain('boss@example.com');
  });

  it('refuses a token that is not valid with 401, so the client can refresh and resend', async () => {
    const res = await post({ events: [event(newSession())] }, { headers: { authorization: 'Bearer not-a-token' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_TOKEN');
  });

  it('refuses 11 events and an empty batch with 400 naming the field', async () => {
    const session = newSession();
    const eleven = await post({ events: Array.from({ length: 11 }, () => event(session)) });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: 'body.events: send 1 to 10 events' });
    expect((await post({ events: [] })).json().message).toBe('body.events: send 1 to 10 events');
    expect(await rowsOf(session)).toEqual([]);
  });

  it('answers 413 for a body over 64 KB', async () => {
    const session = newSession();
    const res = await post({ events: [event(session, { blob: 'x'.repeat(70 * 1024) })] });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await rowsOf(session)).toEqual([]);
  });

  const manyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
  const bigProperties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'y'.repeat(250)]));
  let deep: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < 12; i++) deep = { deep };
  it.each([
    ['not an object', 'oops', 'body.events.1: Invalid input: expected object, received string'],
    ['null', null, 'body.events.1: Invalid input: expected object, received null'],
    ['an array', [1], 'body.events.1: Invalid input: expected object, received array'],
    ['without a type', { pathname: '/x' }, 'body.events.1.type: Invalid input: expected string, received undefined'],
    ['with an empty type', { type: '' }, 'body.events.1.type: must be 1 to 64 characters'],
    ['with a 65-character type', { type: 't'.repeat(65) }, 'body.events.1.type: must be 1 to 64 characters'],
    [
      'with a bad timestamp',
      { type: 'x', timestamp: 'yesterday' },
      'body.events.1.timestamp: must be an ISO 8601 date-time',
    ],
    [
      'from the far future',
      { type: 'x', timestamp: '2999-01-01T00:00:00.000Z' },
      'body.events.1.timestamp: must not be more than a day in the future',
    ],
    [
      'with a fractional screen width',
      { type: 'x', screen_width: 14.5 },
      'body.events.1.screen_width: must be an integer',
    ],
    [
      'with a numeric pathname',
      { type: 'x', pathname: 42 },
      'body.events.1.pathname: Invalid input: expected string, received number',
    ],
    ['with 51 custom keys', { type: 'x', ...manyKeys }, 'body.events.1: at most 50 custom keys per event'],
    [
      'with over 4 KB of custom data',
      { type: 'x', ...bigProperties },
      'body.events.1: custom data over 4096 bytes of JSON',
    ],
    ['nested too deep', { type: 'x', deep }, 'body.events.1: custom data nested deeper than 10 levels'],
  ])('refuses an event %s with 400 and stores nothing of the batch', async (_name, bad, message) => {
    const session = newSession();
    const res = await post({ events: [event(session), bad] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_ERROR', message, error: message });
    expect(await rowsOf(session)).toEqual([]);
  });

  it('refuses a body that is not JSON or has no events with 400', async () => {
    expect((await post('{"events": [')).json()).toMatchObject({ code: 'INVALID_BODY' });
    expect((await post({})).json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body.events: Invalid input: expected array, received undefined',
    });
  });

  it('cuts long strings: custom ones to 256 with an ellipsis, URLs to 2048, UTM values to 256; odd channels become null', async () => {
    const session = newSession();
    const long = 'a'.repeat(300);
    const extra = {
      pathname: `/${'p'.repeat(3000)}`,
      referrer: `https://x.test/${'r'.repeat(3000)}`,
      utm_source: long,
      channel: 'Carrier Pigeon',
      note: long,
      nested: { list: [long] },
    };
    expect((await post({ events: [event(session, extra)] })).statusCode).toBe(200);
    const [row] = await rowsOf(session);
    const cut = `${'a'.repeat(253)}...`;
    expect(row.pathname).toHaveLength(2048);
    expect(row.referrer).toHaveLength(2048);
    expect(row.utm_source).toBe(cut);
    expect(row.channel).toBeNull();
    expect(row.properties).toEqual({ note: cut, nested: { list: [cut] } });
  });

  it('stores text PostgreSQL would refuse (NUL, a surrogate cut in half) instead of failing the batch', async () => {
    const session = newSession();
    const emoji = `${'e'.repeat(252)}😀😀😀`; // the cut at 253 falls inside the first emoji
    const res = await post({
      events: [event(session, { type: 'odd\u0000type', note: emoji, 'k\u0000ey': 'v\u0000' })],
    });
    expect(res.statusCode).toBe(200);
    const [row] = await rowsOf(session);
    expect(row.type).toBe('oddtype');
    expect(row.properties).toEqual({ note: `${'e'.repeat(252)}\uFFFD...`, key: 'v' });
  });

  it('uses the server time when the event has no timestamp', async () => {
    const session = newSession();
    const before = Date.now();
    await post({ events: [{ type: 'ping', session_id: session }] });
    const [row] = await rowsOf(session);
    expect((row.occurred_at as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('limits each address to 120 posts a minute (429 RATE_LIMITED)', async () => {
    const remoteAddress = '10.250.0.1';
    for (let i = 0; i < 120; i++) expect((await post({ events: [] }, { remoteAddress })).statusCode).toBe(400);
    const limited = await post({ events: [event(newSession())] }, { remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect((await post({ events: [event(newSession())] }, { remoteAddress: '10.250.0.2' })).statusCode).toBe(200);
  });

  it('answers 404 for another project, and the REST API does not expose the table', async () => {
    expect((await post({ events: [event(newSession())] }, { url: '/api/analytics/other/log' })).json().code).toBe(
      'PROJECT_NOT_FOUND',
    );
    const rest = await app.inject({
      method: 'GET',
      url: '/api/db/fieldassist/rest/v1/analytics_events',
      headers: { authorization: `Bearer ${serviceKey}` },
    });
    expect(rest.statusCode).toBe(400);
    expect(rest.json().code).toBe('UNKNOWN_TABLE');
  });
});
