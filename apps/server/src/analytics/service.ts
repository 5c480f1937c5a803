import type pg from 'pg';
import type { AnalyticsEvent } from './schemas.js';
import { parseUserAgent } from './user-agent.js';

export interface LogEventsInput {
  /** The signed-in caller's account id; null for anonymous and service-key posts. */
  userId: string | null;
  /** The request's User-Agent header, read for device type, browser and OS. */
  userAgent: string | undefined;
  events: AnalyticsEvent[];
}

/**
 * Stores a validated batch in analytics_events, all rows or none (one statement).
 * Returns how many were stored. Anyone may call it; the caller decides `userId`.
 */
export async function logEvents(pool: pg.Pool, { userId, userAgent, events }: LogEventsInput): Promise<number> {
  const device = parseUserAgent(userAgent);
  const rows = events.map((event) => ({
    type: event.type,
    occurred_at: event.occurredAt.toISOString(),
    user_id: userId,
    session_id: event.sessionId,
    pathname: event.pathname,
    referrer: event.referrer,
    screen_width: event.screenWidth,
    channel: event.channel,
    utm_source: event.utmSource,
    utm_medium: event.utmMedium,
    utm_campaign: event.utmCampaign,
    utm_content: event.utmContent,
    utm_term: event.utmTerm,
    device_type: device.deviceType,
    browser: device.browser,
    os: device.os,
    properties: event.properties,
  }));
  // One jsonb parameter for the whole batch: a fixed statement whatever the batch size.
  const { rowCount } = await pool.query(
    `INSERT INTO analytics_events (type, occurred_at, user_id, session_id, pathname, referrer, screen_width, channel,
       utm_source, utm_medium, utm_campaign, utm_content, utm_term, device_type, browser, os, properties)
     SELECT type, occurred_at, user_id, session_id, pathname, referrer, screen_width, channel,
       utm_source, utm_medium, utm_campaign, utm_content, utm_term, device_type, browser, os, properties
     FROM jsonb_to_recordset($1::jsonb) AS e(type text, occurred_at timestamptz, user_id text, session_id text, pathname text,
       referrer text, screen_width integer, channel text, utm_source text, utm_medium text, utm_campaign text, utm_content text,
       utm_term text, device_type text, browser text, os text, properties jsonb)`,
    [JSON.stringify(rows)],
  );
  return rowCount ?? 0;
}
