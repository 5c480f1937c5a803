import { z } from 'zod';
import { ApiError } from '../errors.js';
import { safeFetch } from './safe-fetch.js';

export interface SearchRequest {
  q: string;
  location?: string;
  hl?: string;
  tbm?: 'nws' | 'isch' | 'vid' | 'shop';
  num?: number;
}

interface Result {
  position: number;
  title: string;
  link: string;
  snippet: string;
}

/** PLATFORM_API.md section 6 `search` (the SDK's SearchResponse); only what SearXNG can fill. */
export interface SearchResponse {
  organic_results: Result[];
  total_results: string;
  related_searches: string[];
  news_results?: Array<{ title: string; link: string; snippet: string; date: string; source: string }>;
  image_results?: Array<{ title: string; link: string; original: string; thumbnail: string }>;
}

export interface SearchDeps {
  /** The SearXNG origin (SEARCH_URL); unset answers SEARCH_NOT_CONFIGURED. */
  searchUrl?: string;
  timeoutMs: number;
}

/** The part of SearXNG's `format=json` answer we read (searx/webapp.py, search results). */
const ZSearxngAnswer = z
  .object({
    number_of_results: z.number().optional(),
    results: z
      .array(
        z
          .object({
            url: z.string(),
            title: z.string().optional(),
            content: z.string().optional(),
            publishedDate: z.string().nullish(),
            engine: z.string().optional(),
            img_src: z.string().optional(),
            thumbnail_src: z.string().optional(),
          })
          .loose(),
      )
      .default([]),
    suggestions: z.array(z.string()).default([]),
  })
  .loose();

// SearXNG has categories where the platform has Google's tbm; it has no shopping category.
const categoryOf: Record<NonNullable<SearchRequest['tbm']>, string> = {
  nws: 'news',
  isch: 'images',
  vid: 'videos',
  shop: 'general',
};

function searchAddress(searchUrl: string, { q, hl = 'en', tbm }: SearchRequest): string {
  const url = new URL(`${searchUrl}/search`);
  url.searchParams.set('q', q);
  url.searchParams.set('format', 'json');
  url.searchParams.set('language', hl);
  url.searchParams.set('categories', tbm ? categoryOf[tbm] : 'general');
  return url.href;
}

/**
 * Asks the configured SearXNG and maps its answer to the platform's Google-like shape.
 * `location` is ignored (SearXNG has no such parameter); `num` cuts the list (default 10).
 * The backend is trusted configuration, so it may sit on a private address, but only
 * http(s) is followed, with the data time limit. Any signed-in caller.
 * Throws SEARCH_NOT_CONFIGURED (503), FETCH_FAILED (502), FETCH_TIMEOUT (504).
 */
export async function searchWeb(deps: SearchDeps, request: SearchRequest): Promise<SearchResponse> {
  if (!deps.searchUrl) throw new ApiError('SEARCH_NOT_CONFIGURED', 'No search backend is configured (set SEARCH_URL)');
  const answer = await safeFetch(searchAddress(deps.searchUrl, request), {
    isAllowedAddress: () => true,
    timeoutMs: deps.timeoutMs,
    maxBytes: 5 * 1024 * 1024,
    headers: { accept: 'application/json' },
    passStatus: true,
  });
  if (answer.status === 403)
    throw new ApiError(
      'FETCH_FAILED',
      'The search backend refused the JSON format (enable "json" under search.formats in SearXNG settings)',
    );
  if (answer.status >= 300) throw new ApiError('FETCH_FAILED', `The search backend answered HTTP ${answer.status}`);
  let parsed: z.infer<typeof ZSearxngAnswer>;
  try {
    parsed = ZSearxngAnswer.parse(JSON.parse(answer.bytes.toString('utf8')));
  } catch {
    throw new ApiError('FETCH_FAILED', 'The search backend did not answer with SearXNG JSON');
  }
  const results = parsed.results.slice(0, request.num ?? 10);
  const response: SearchResponse = {
    organic_results: results.map((result, index) => ({
      position: index + 1,
      title: result.title ?? result.url,
      link: result.url,
      snippet: result.content ?? '',
    })),
    // SearXNG often reports 0 when its engines give no estimate: then count what came back.
    total_results: String(parsed.number_of_results || parsed.results.length),
    related_searches: parsed.suggestions,
  };
  if (request.tbm === 'nws') {
    response.news_results = results.map((result) => ({
      title: result.title ?? result.url,
      link: result.url,
      snippet: result.content ?? '',
      date: result.publishedDate ?? '',
      source: result.engine ?? '',
    }));
  }
  if (request.tbm === 'isch') {
    response.image_results = results.map((result) => ({
      title: result.title ?? result.url,
      link: result.url,
      original: result.img_src ?? result.url,
      thumbnail: result.thumbnail_src ?? result.img_src ?? '',
    }));
  }
  return response;
}
