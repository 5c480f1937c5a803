import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The security headers of every response, as helmet sets them: computed once at start-up
 * (helmet's Fastify plugin rebuilds its middleware on every request, a quarter of the cost
 * of a small API call) and copied onto each reply.
 */
export function securityHeaders({ https }: { https: boolean }): Record<string, string> {
  const middleware = helmet({
    // Strict-Transport-Security only where the server is reached over TLS (PUBLIC_URL https):
    // on plain http it would mean nothing, and on localhost it would stick to other local apps.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the viewer's pdf.js compile its WebAssembly image decoders
        // (JPEG 2000 scans); it allows no eval() or new Function() of JavaScript.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
    },
    // The hosted sign-in page runs in a popup that posts tokens back to its opener.
    crossOriginOpenerPolicy: false,
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}
