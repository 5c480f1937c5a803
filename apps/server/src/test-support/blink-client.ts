import { createClient } from '@blinkdotnew/sdk';

export type BlinkClient = ReturnType<typeof createClient>;

/**
 * The published platform client (@blinkdotnew/sdk 2.9.0, headless mode) pointed at a server of
 * ours: auth at auth.authUrl, and its hard-coded core URL set to the server as PLATFORM_API.md
 * section 0 says.
 */
export function blinkClientFor(server: { url: string; projectId: string }): BlinkClient {
  const blink = createClient({
    projectId: server.projectId,
    authRequired: false,
    auth: { mode: 'headless', authUrl: server.url },
  });
  const http = (blink as unknown as { _httpClient: { coreUrl: string; authUrl: string } })._httpClient;
  http.coreUrl = server.url;
  http.authUrl = server.url;
  return blink;
}
