// AI calls are limited per signed-in user (AI_RATE_LIMIT_PER_MINUTE), across all AI routes.
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FieldAssistError } from '../../../../packages/client/src/index.js';
import { signUpUser } from '../test-support/users.js';
import { startAiApp } from './test-support/ai-app.js';

let server: Awaited<ReturnType<typeof startAiApp>>;
beforeAll(async () => {
  server = await startAiApp({ rateLimitPerMinute: 3 });
});

const call = (route: string, headers: Record<string, string>) =>
  server.app.inject({
    method: 'POST',
    url: `/api/ai/${server.projectId}/${route}`,
    headers,
    payload: { prompt: 'Hi', text: 'Hi' },
  });

describe('the per-user AI rate limit', () => {
  it('counts every AI route in one budget, refuses past it with 429 RATE_LIMITED, and only that user', async () => {
    const statuses = [];
    for (const route of ['speech', 'text', 'image']) statuses.push((await call(route, server.user.headers)).statusCode);
    expect(statuses).toEqual([503, 200, 503]); // the local provider has no speech or images; the calls still count
    const refused = await call('text', server.user.headers);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      error: 'Too many attempts. Please wait a moment and try again.',
      message: 'Too many attempts. Please wait a moment and try again.',
      code: 'RATE_LIMITED',
    });

    const other = await signUpUser(server.app, { role: 'technician', projectId: server.projectId });
    expect((await call('text', other.headers)).statusCode).toBe(200);
  });

  it('counts the chat in the same budget, set by AI_RATE_LIMIT_PER_MINUTE', async () => {
    const user = await signUpUser(server.app, { role: 'technician', projectId: server.projectId });
    const chat = () =>
      server.app.inject({
        method: 'POST',
        url: `/api/app/${server.projectId}/chat`,
        headers: user.headers,
        payload: { question: 'Pump error E42?' },
      });
    expect((await call('text', user.headers)).statusCode).toBe(200);
    expect([(await chat()).statusCode, (await chat()).statusCode]).toEqual([200, 200]);
    const refused = await chat();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect((await call('text', user.headers)).statusCode).toBe(429);
  });

  it('does not count the service key', async () => {
    const service = { authorization: `Bearer ${server.serviceKey}` };
    for (let i = 0; i < 5; i++) expect((await call('text', service)).statusCode).toBe(200);
  });
});

describe('through the client SDK', () => {
  it("a refused call carries the server's Retry-After, so the app waits as long as it is told", async () => {
    const user = await signUpUser(server.app, { role: 'technician', projectId: server.projectId });
    const client = createClient({
      projectId: server.projectId,
      baseUrl: server.url,
      auth: { mode: 'headless' },
      getAccessToken: () => user.accessToken,
    });
    const schema = { type: 'object' as const, properties: { title: { type: 'string' } } };
    for (let i = 0; i < 3; i++) await client.ai.generateObject({ prompt: 'Pump manual', schema });
    const refused = (await client.ai
      .generateObject({ prompt: 'Pump manual', schema })
      .catch((e: unknown) => e)) as FieldAssistError;
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryable: true });
    expect(refused.retryAfterMs).toBeGreaterThan(0);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
  });
});
