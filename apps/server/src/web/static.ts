import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built web app. Vite's hashed files under /assets never change, so they are
 * cached for a year; index.html is revalidated on every load so a deploy shows at once.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!existsSync(join(webDist, 'index.html'))) {
    app.log.warn(`no web build at ${webDist}: run "npm run build" to serve the app`);
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    // `/` belongs to the realtime WebSocket route, which hands plain page loads to the SPA fallback.
    index: false,
    setHeaders(res, path) {
      const hashed = path.startsWith(join(webDist, 'assets'));
      res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}
