import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSignedIn } from '../auth/caller.js';
import type { Config } from '../config.js';
import { createBackgroundFetcher, proxyFetch, proxyMethods } from './proxy-fetch.js';
import type { SafeFetchOptions } from './safe-fetch.js';
import { scrapeFormats, scrapeUrl } from './scrape.js';
import { createScreenshotter, type ScreenshotDeps } from './screenshot.js';
import { searchWeb } from './search.js';

export interface WebDataDeps {
  config: Pick<
    Config,
    | 'searchUrl'
    | 'dataFetchTimeoutMs'
    | 'dataFetchMaxBytes'
    | 'dataRateLimitPerMinute'
    | 'chromiumPath'
    | 'screenshotTimeoutMs'
    | 'screenshotConcurrency'
  >;
  saveFile: ScreenshotDeps['saveFile'];
  /** Address policy of scrape, fetch and screenshot; default public addresses only (tests allow a loopback port). */
  fetchOptions?: Pick<SafeFetchOptions, 'isAllowedAddress' | 'resolveHost'>;
}

const ZUrl = z.string().min(1).max(4096);
const ZScalar = z.union([z.string().max(8192), z.number(), z.boolean()]);

export const ZScrapeBody = z.object({
  url: ZUrl,
  formats: z.array(z.enum(scrapeFormats)).max(scrapeFormats.length).optional(),
});
export type ScrapeBody = z.infer<typeof ZScrapeBody>;

export const ZFetchBody = z.object({
  url: ZUrl,
  method: z
    .string()
    .transform((method) => method.toUpperCase())
    .pipe(z.enum(proxyMethods))
    .optional(),
  headers: z
    .record(
      z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid header name'),
      ZScalar.transform(String).pipe(z.string().regex(/^[^\r\n\0]*$/, 'a header value cannot contain line breaks')),
    )
    .optional(),
  body: z.unknown().optional(),
  query: z.record(z.string(), z.union([ZScalar, z.array(ZScalar)])).optional(),
  async: z.boolean().optional(),
});
export type FetchBody = z.infer<typeof ZFetchBody>;

export const ZScreenshotBody = z.object({
  url: ZUrl,
  fullPage: z.boolean().optional(),
  width: z.number().int().min(320).max(3840).optional(),
  height: z.number().int().min(240).max(2160).optional(),
});
export type ScreenshotBody = z.infer<typeof ZScreenshotBody>;

export const ZSearchBody = z.object({
  q: z.string().trim().min(1).max(2048),
  location: z.string().max(256).optional(),
  hl: z
    .string()
    .regex(/^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*|all|auto)$/, 'a language code such as en or en-GB')
    .default('en'),
  tbm: z.enum(['nws', 'isch', 'vid', 'shop']).optional(),
  num: z.number().int().min(1).max(100).optional(),
});
export type SearchBody = z.infer<typeof ZSearchBody>;

async function signedIn(request: FastifyRequest) {
  requireSignedIn(request.caller);
}

/**
 * POST /api/data/:projectId/scrape, fetch, screenshot and search (PLATFORM_API.md section 6),
 * for signed-in callers, limited per user. Outbound requests reach public addresses only.
 */
export function registerWebDataRoutes(app: FastifyInstance, { config, saveFile, fetchOptions: policy }: WebDataDeps) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const fetchOptions: SafeFetchOptions = {
    ...policy,
    timeoutMs: config.dataFetchTimeoutMs,
    maxBytes: config.dataFetchMaxBytes,
  };
  const screenshots = createScreenshotter({
    chromiumPath: config.chromiumPath,
    timeoutMs: config.screenshotTimeoutMs,
    concurrency: config.screenshotConcurrency,
    fetchOptions: policy,
    saveFile,
  });
  const fetchInBackground = createBackgroundFetcher({ log: (message) => app.log.info(message) });
  app.addHook('onClose', () => screenshots.close());
  // Signed in (401) and within budget (429) before the body is read at all.
  const onRequest = [
    signedIn,
    app.rateLimit({
      max: config.dataRateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) =>
        request.caller.kind === 'user' ? `data:${request.caller.userId}` : `data-ip:${request.ip}`,
      allowList: (request: FastifyRequest) => request.caller.kind === 'service',
    }),
  ];

  typed.post('/api/data/:projectId/scrape', { onRequest, schema: { body: ZScrapeBody } }, async (request) =>
    scrapeUrl({ ...request.body, fetchOptions }),
  );

  typed.post('/api/data/:projectId/fetch', { onRequest, schema: { body: ZFetchBody } }, async (request) => {
    const { async: inBackground, ...proxied } = request.body;
    return inBackground ? fetchInBackground(proxied, fetchOptions) : proxyFetch(proxied, fetchOptions);
  });

  typed.post(
    '/api/data/:projectId/screenshot',
    { onRequest, schema: { body: ZScreenshotBody, response: { 200: z.object({ url: z.string() }) } } },
    async (request) => screenshots.takeScreenshot(request.body),
  );

  typed.post('/api/data/:projectId/search', { onRequest, schema: { body: ZSearchBody } }, async (request) =>
    searchWeb({ searchUrl: config.searchUrl, timeoutMs: config.dataFetchTimeoutMs }, request.body),
  );
}
