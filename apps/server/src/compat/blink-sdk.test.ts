import { createClient } from '@blinkdotnew/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../test-support/test-server.js';

// The published platform client (@blinkdotnew/sdk 2.9.0, headless mode) against our server:
// auth at auth.authUrl, and its hard-coded core URL pointed here as PLATFORM_API.md section 0 says.
let server: Awaited<ReturnType<typeof startTestServer>>;
let blink: ReturnType<typeof createClient>;

beforeAll(async () => {
  server = await startTestServer({ SIGNUP_MODE: 'open' });
  blink = createClient({ projectId: server.projectId, authRequired: false, auth: { mode: 'headless', authUrl: server.url } });
  const http = (blink as unknown as { _httpClient: { coreUrl: string; authUrl: string } })._httpClient;
  http.coreUrl = server.url;
  http.authUrl = server.url;
});

afterAll(async () => server.close());

describe('@blinkdotnew/sdk against FieldAssist', () => {
  let userId: string;

  it('signs up, reads me, signs in again', async () => {
    const user = await blink.auth.signUp({ email: 'sdk.user@example.com', password: 'sdk-password-123', displayName: 'SDK User' });
    expect(user).toMatchObject({ email: 'sdk.user@example.com', displayName: 'SDK User', role: 'admin' });
    userId = user.id;
    expect((await blink.auth.me()).id).toBe(userId);
    const again = await blink.auth.signInWithEmail('sdk.user@example.com', 'sdk-password-123');
    expect(again.id).toBe(userId);
  });

  it('refreshes its tokens', async () => {
    const before = await blink.auth.getValidToken();
    expect(await blink.auth.refreshToken()).toBe(true);
    const after = await blink.auth.getValidToken();
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect((await blink.auth.me()).id).toBe(userId);
  });

  it('creates, lists with filters, updates, counts and deletes jobs', async () => {
    const now = Date.now();
    const created = await blink.db.jobs.create({ userId, title: 'AC Unit Repair', description: 'Noisy compressor', status: 'pending', priority: 'high', createdAt: now, updatedAt: now });
    expect(created).toMatchObject({ userId, title: 'AC Unit Repair', priority: 'high' });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    await blink.db.jobs.createMany([
      { userId, title: 'Boiler check', description: 'Annual', priority: 'low', createdAt: now + 1, updatedAt: now + 1 },
      { userId, title: 'Pump seal', description: 'Leak', priority: 'medium', createdAt: now + 2, updatedAt: now + 2 },
    ]);

    const newest = await blink.db.jobs.list({ where: { userId }, orderBy: { createdAt: 'desc' }, limit: 2 });
    expect(newest.map((j) => j.title)).toEqual(['Pump seal', 'Boiler check']);
    const urgent = await blink.db.jobs.list({ where: { OR: [{ priority: 'high' }, { title: { like: '%Pump%' } }] }, orderBy: { createdAt: 'asc' } });
    expect(urgent.map((j) => j.title)).toEqual(['AC Unit Repair', 'Pump seal']);

    const updated = await blink.db.jobs.update(created.id, { status: 'completed', updatedAt: Date.now() });
    expect(updated).toMatchObject({ id: created.id, status: 'completed' });
    expect(await blink.db.jobs.count({ where: { userId, status: 'pending' } })).toBe(2);
    expect(await blink.db.jobs.exists({ where: { status: 'completed' } })).toBe(true);

    await blink.db.jobs.delete(created.id);
    expect(await blink.db.jobs.get(created.id)).toBeNull();
    expect(await blink.db.jobs.count({ where: { userId } })).toBe(2);
  });

  it('sees its errors as the SDK expects', async () => {
    await expect(blink.db.jobs.update('missing', { status: 'completed' })).rejects.toThrow(/Record with id missing not found/);
    await expect(blink.auth.signInWithEmail('sdk.user@example.com', 'wrong-password-1')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });
});
