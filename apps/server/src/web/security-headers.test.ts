import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-support/test-server.js';

const plain = await buildTestApp({ PUBLIC_URL: 'http://fieldassist.test', APP_ORIGINS: 'http://fieldassist.test' });
const tls = await buildTestApp({ PUBLIC_URL: 'https://fieldassist.example.com' });
afterAll(() => Promise.all([plain.app.close(), tls.app.close()]));

const get = (app: typeof plain.app, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/healthz', headers });

describe('security headers', () => {
  it('forbid inline scripts, framing and referrers, and sniffing, on every response', async () => {
    const res = await get(plain.app);
    const csp = String(res.headers['content-security-policy']);
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `));
    // WebAssembly may be compiled (pdf.js's image decoders), JavaScript never evaluated.
    expect(directive('script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('send HSTS only when the server is reached over TLS', async () => {
    expect((await get(plain.app)).headers['strict-transport-security']).toBeUndefined();
    expect((await get(tls.app)).headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('allow cross-origin calls only from APP_ORIGINS', async () => {
    const allowed = await get(plain.app, { origin: 'http://fieldassist.test' });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://fieldassist.test');
    const foreign = await get(plain.app, { origin: 'https://evil.example' });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await plain.app.inject({
      method: 'OPTIONS',
      url: '/api/db/fieldassist/rest/v1/jobs',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
