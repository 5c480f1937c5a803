import type { FastifyInstance } from 'fastify';
import type { ResolvedConfig } from '../config.js';
import { escapeHtml } from '../notify/html.js';
import { isAllowedOrigin } from './redirects.js';

/**
 * The hosted sign-in page (/auth) is the web app's auth screen. Before it is served, its
 * redirect_url and opener_origin must be on the allow-list: otherwise an error page is
 * answered and no token can leave for a foreign origin. No Cross-Origin-Opener-Policy is
 * sent, so a popup keeps its opener (PLATFORM_API.md 14.7).
 */
// The state the app sent (the SDK's is 32 hex characters) travels back to it untouched; a
// provider is a plain name. Anything else is not a link the app made.
const STATE_SHAPE = /^[A-Za-z0-9._~-]{1,128}$/;
const PROVIDER_SHAPE = /^[a-z]{1,32}$/;

export function registerHostedPage(app: FastifyInstance, config: ResolvedConfig, hasWebApp: boolean) {
  const allowed = [...config.appOrigins, new URL(config.publicUrl).origin];
  app.get<{ Querystring: Record<string, string | undefined> }>('/auth', async (request, reply) => {
    const {
      redirect_url: redirectUrl,
      opener_origin: openerOrigin,
      project_id: projectId,
      state,
      provider,
    } = request.query;
    const problem =
      projectId !== undefined && projectId !== config.projectId
        ? 'This sign-in link is for another project.'
        : (state !== undefined && !STATE_SHAPE.test(state)) ||
            (provider !== undefined && !PROVIDER_SHAPE.test(provider))
          ? 'This sign-in link is damaged.'
          : redirectUrl !== undefined && !isAllowedOrigin(redirectUrl, allowed)
            ? 'This sign-in link asks to return to a site that is not allowed.'
            : openerOrigin !== undefined && !isAllowedOrigin(openerOrigin, allowed)
              ? 'This sign-in window was opened by a site that is not allowed.'
              : undefined;
    if (problem) {
      return reply
        .status(400)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(errorPage(problem));
    }
    if (!hasWebApp) return reply.status(404).type('text/plain').send('The web app is not built: run "npm run build".');
    return reply.header('cache-control', 'no-store').sendFile('index.html');
  });
}

function errorPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in link not allowed · FieldAssist</title><link rel="icon" type="image/svg+xml" href="/favicon.svg">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1.5rem;color:#0f172a}h1{font-size:1.375rem}p{color:#475569;line-height:1.5}</style></head>
<body><h1>Sign-in link not allowed</h1><p>${escapeHtml(message)}</p><p>No sign-in took place. Open FieldAssist from its usual address and sign in there.</p></body></html>`;
}
