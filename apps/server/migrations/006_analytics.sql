-- Analytics events (issue 7, PLATFORM_API.md section 9). Written only by
-- POST /api/analytics/{pid}/log; not in the REST policies, so the REST API refuses the table
-- and only the service key reads it (through /sql).

CREATE TABLE analytics_events (
  id bigserial PRIMARY KEY,
  type text NOT NULL,
  -- The event's own time (the browser's clock); received_at is the server's.
  occurred_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  -- The signed-in caller, never the body's user_id. A deleted account keeps its events, unnamed.
  user_id text REFERENCES auth_accounts (id) ON DELETE SET NULL,
  session_id text,
  pathname text,
  referrer text,
  screen_width integer,
  channel text,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_content text,
  utm_term text,
  -- Parsed from the User-Agent header by the server.
  device_type text,
  browser text,
  os text,
  -- The app's custom keys, as sent (strings cut to 256 characters).
  properties jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX analytics_events_time ON analytics_events (occurred_at);
CREATE INDEX analytics_events_type_time ON analytics_events (type, occurred_at);
CREATE INDEX analytics_events_session ON analytics_events (session_id, occurred_at) WHERE session_id IS NOT NULL;
CREATE INDEX analytics_events_user ON analytics_events (user_id) WHERE user_id IS NOT NULL;
