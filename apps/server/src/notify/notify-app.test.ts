import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';

// The role matrix is in notify.test.ts; this file proves the wiring in the real app.
describe('notify routes in the real app', () => {
  it('sends with the service key, refuses anonymous callers, and shows the message in the dev outbox', async () => {
    const { app, projectId, serviceKey } = await buildTestApp({ SMTP_FROM: 'FieldAssist <noreply@wired.test>' });
    const url = `/api/notifications/${projectId}/email`;
    const payload = { to: 'wired@example.com', subject: 'Wired', text: 'Open http://localhost:3000/x' };

    expect((await app.inject({ method: 'POST', url, payload })).json()).toMatchObject({ code: 'UNAUTHORIZED' });
    const sent = await app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${serviceKey}` } });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      success: true,
      from: 'FieldAssist <noreply@wired.test>',
      to: ['wired@example.com'],
    });
    const outbox = await app.inject({ method: 'GET', url: '/dev/outbox.json?to=wired@example.com' });
    expect(outbox.json().messages[0]).toMatchObject({ id: sent.json().messageId, links: ['http://localhost:3000/x'] });
  });

  it('has no dev outbox in production', async () => {
    const { app } = await buildTestApp({ NODE_ENV: 'production' });
    expect((await app.inject({ method: 'GET', url: '/dev/outbox.json' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
  });
});
