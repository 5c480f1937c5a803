// The body of POST /api/analytics/{pid}/log (PLATFORM_API.md section 9): standard snake_case
// fields typed and bounded, everything else kept as the event's custom `properties`.
import { z } from 'zod';

/** SPEC.md section 9's traffic channels; any other value is stored as null. */
export const CHANNELS = [
  'Paid Search',
  'Email',
  'Social',
  'Referral',
  'Display',
  'Affiliate',
  'Organic Search',
  'Direct',
] as const;
export type Channel = (typeof CHANNELS)[number];

export const MAX_EVENTS = 10;
export const MAX_STRING = 256;
export const MAX_CUSTOM_KEYS = 50;
export const MAX_PROPERTIES_BYTES = 4096;
const MAX_DEPTH = 10;
// Browsers' clocks drift, and a wrong time zone setting moves toISOString by whole hours.
const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;

// PostgreSQL refuses NUL in text and unpaired surrogates in jsonb: either would fail the whole batch.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
function storable(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/** Strings over `max` become their first `max - 3` characters and `...`, as the client SDK cuts them. */
export function cutString(text: string, max = MAX_STRING): string {
  const clean = storable(text);
  if (clean.length <= max) return clean;
  return storable(`${clean.slice(0, max - 3)}...`);
}

/** An optional text field; too long is cut rather than refused (a long URL should not cost the batch). */
const capped = (max: number) =>
  z
    .string()
    .nullish()
    .transform((text) => (text == null ? null : cutString(text, max)));

/** The fields PLATFORM_API.md section 9 names. The body's user_id and user_email are never stored. */
const standardFields = {
  type: z.string().min(1, 'must be 1 to 64 characters').max(64, 'must be 1 to 64 characters').transform(storable),
  timestamp: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .refine((value) => Date.parse(value) <= Date.now() + MAX_FUTURE_MS, 'must not be more than a day in the future')
    .nullish(),
  session_id: capped(128),
  pathname: capped(2048),
  referrer: capped(2048),
  screen_width: z.number().int('must be an integer').min(0).max(100_000).nullish(),
  channel: z.unknown().optional(),
  utm_source: capped(MAX_STRING),
  utm_medium: capped(MAX_STRING),
  utm_campaign: capped(MAX_STRING),
  utm_content: capped(MAX_STRING),
  utm_term: capped(MAX_STRING),
  project_id: z.unknown().optional(),
  user_id: z.unknown().optional(),
  user_email: z.unknown().optional(),
};
const standardKeys = new Set(Object.keys(standardFields));

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Strings cut, keys cleaned; undefined when nested deeper than MAX_DEPTH. */
function sanitize(value: unknown, depth: number): Json | undefined {
  if (typeof value === 'string') return cutString(value);
  if (value === null || typeof value !== 'object') return value as Json;
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((item) => sanitize(item, depth + 1));
    return items.includes(undefined) ? undefined : (items as Json[]);
  }
  const result: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    const clean = sanitize(item, depth + 1);
    if (clean === undefined) return undefined;
    result[cutString(key)] = clean;
  }
  return result;
}

export const ZAnalyticsEvent = z.looseObject(standardFields).transform((event, ctx) => {
  const custom = Object.fromEntries(Object.entries(event).filter(([key]) => !standardKeys.has(key)));
  const fail = (message: string) => {
    ctx.issues.push({ code: 'custom', message, input: event });
    return z.NEVER;
  };
  if (Object.keys(custom).length > MAX_CUSTOM_KEYS) return fail(`at most ${MAX_CUSTOM_KEYS} custom keys per event`);
  const properties = sanitize(custom, 0) as Record<string, Json> | undefined;
  if (!properties) return fail(`custom data nested deeper than ${MAX_DEPTH} levels`);
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES)
    return fail(`custom data over ${MAX_PROPERTIES_BYTES} bytes of JSON`);
  return {
    type: event.type,
    occurredAt: event.timestamp ? new Date(event.timestamp) : new Date(),
    sessionId: event.session_id,
    pathname: event.pathname,
    referrer: event.referrer,
    screenWidth: event.screen_width ?? null,
    channel: CHANNELS.includes(event.channel as Channel) ? (event.channel as Channel) : null,
    utmSource: event.utm_source,
    utmMedium: event.utm_medium,
    utmCampaign: event.utm_campaign,
    utmContent: event.utm_content,
    utmTerm: event.utm_term,
    properties,
  };
});
export type AnalyticsEvent = z.output<typeof ZAnalyticsEvent>;

export const ZLogBody = z.object({
  events: z
    .array(ZAnalyticsEvent)
    .min(1, `send 1 to ${MAX_EVENTS} events`)
    .max(MAX_EVENTS, `send 1 to ${MAX_EVENTS} events`),
});
export type LogBody = z.output<typeof ZLogBody>;
