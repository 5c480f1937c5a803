import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlinkClient, blinkClientFor } from '../../src/test-support/blink-client.js';
import { startTestServer } from '../../src/test-support/test-server.js';

// The published platform client (@blinkdotnew/sdk 2.9.0, headless mode) against our server.
let server: Awaited<ReturnType<typeof startTestServer>>;
let blink: BlinkClient;
// The published typings know no tables and no displayName on sign-up; the wire carries both.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const jobsOf = (client: BlinkClient) => (client.db as any).jobs;

beforeAll(async () => {
  server = await startTestServer({ SIGNUP_MODE: 'open' });
  blink = blinkClientFor(server);
});

afterAll(async () => server.close());

describe('@blinkdotnew/sdk against FieldAssist', () => {
  let userId: string;

  it('signs up, reads me, signs in again', async () => {
    const user = await blink.auth.signUp({
      email: 'sdk.user@example.com',
      password: 'sdk-password-123',
      displayName: 'SDK User',
    } as Parameters<typeof blink.auth.signUp>[0]);
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
    const created = await jobsOf(blink).create({
      userId,
      title: 'AC Unit Repair',
      description: 'Noisy compressor',
      status: 'pending',
      priority: 'high',
      createdAt: now,
      updatedAt: now,
    });
    expect(created).toMatchObject({ userId, title: 'AC Unit Repair', priority: 'high' });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    await jobsOf(blink).createMany([
      { userId, title: 'Boiler check', description: 'Annual', priority: 'low', createdAt: now + 1, updatedAt: now + 1 },
      { userId, title: 'Pump seal', description: 'Leak', priority: 'medium', createdAt: now + 2, updatedAt: now + 2 },
    ]);

    const newest = await jobsOf(blink).list({ where: { userId }, orderBy: { createdAt: 'desc' }, limit: 2 });
    expect(newest.map((j: { title: string }) => j.title)).toEqual(['Pump seal', 'Boiler check']);
    const urgent = await jobsOf(blink).list({
      where: { OR: [{ priority: 'high' }, { title: { like: '%Pump%' } }] },
      orderBy: { createdAt: 'asc' },
    });
    expect(urgent.map((j: { title: string }) => j.title)).toEqual(['AC Unit Repair', 'Pump seal']);

    const updated = await jobsOf(blink).update(created.id, { status: 'completed', updatedAt: Date.now() });
    expect(updated).toMatchObject({ id: created.id, status: 'completed' });
    expect(await jobsOf(blink).count({ where: { userId, status: 'pending' } })).toBe(2);
    expect(await jobsOf(blink).exists({ where: { status: 'completed' } })).toBe(true);

    await jobsOf(blink).delete(created.id);
    expect(await jobsOf(blink).get(created.id)).toBeNull();
    expect(await jobsOf(blink).count({ where: { userId } })).toBe(2);
  });

  it('sees its errors as the SDK expects', async () => {
    await expect(jobsOf(blink).update('missing', { status: 'completed' })).rejects.toThrow(
      /Record with id missing not found/,
    );
    await expect(blink.auth.signInWithEmail('sdk.user@example.com', 'wrong-password-1')).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
  });
});
