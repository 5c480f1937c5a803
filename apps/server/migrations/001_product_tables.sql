-- The product tables of SPEC.md section 3. Ids are text (clients send 32-hex or prefixed
-- ids). Jobs and chat messages keep millisecond timestamps, as the spec's client writes
-- them; the library tables keep timestamptz, which reaches the client as ISO strings.

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  email_verified integer NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1)),
  display_name text,
  phone text,
  phone_verified integer NOT NULL DEFAULT 0 CHECK (phone_verified IN (0, 1)),
  avatar_url text,
  role text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_sign_in timestamptz
);

CREATE TABLE user_roles (
  id text PRIMARY KEY,
  user_id text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('admin', 'technician', 'manager', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  assigned_by text
);
CREATE INDEX user_roles_updated_at ON user_roles (updated_at DESC);

CREATE TABLE jobs (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  title text NOT NULL,
  description text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in-progress', 'completed')),
  priority text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high')),
  created_at bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint,
  updated_at bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint
);
CREATE INDEX jobs_user_created ON jobs (user_id, created_at DESC);

CREATE TABLE chat_messages (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  message text NOT NULL,
  response text NOT NULL,
  created_at bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint
);
CREATE INDEX chat_messages_user_created ON chat_messages (user_id, created_at);

CREATE TABLE release_versions (
  id text PRIMARY KEY,
  version_name text NOT NULL,
  release_year integer NOT NULL,
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text
);
CREATE INDEX release_versions_year ON release_versions (release_year DESC);

CREATE TABLE manuals (
  id text PRIMARY KEY,
  version_id text REFERENCES release_versions (id),
  title text NOT NULL,
  file_url text NOT NULL,
  file_name text NOT NULL,
  file_size bigint NOT NULL DEFAULT 0,
  file_type text,
  description text,
  document_type text NOT NULL DEFAULT 'manual' CHECK (document_type IN ('manual', 'system_planner')),
  technology text,
  date_published text,
  part_number text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  uploaded_by text
);
CREATE INDEX manuals_created_at ON manuals (created_at DESC);
CREATE INDEX manuals_version ON manuals (version_id);

CREATE TABLE tags (
  id text PRIMARY KEY,
  name text NOT NULL,
  color text NOT NULL DEFAULT '#3b82f6',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text
);
CREATE INDEX tags_name ON tags (name);

CREATE TABLE manual_tags (
  id text PRIMARY KEY,
  manual_id text NOT NULL REFERENCES manuals (id) ON DELETE CASCADE,
  tag_id text NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (manual_id, tag_id)
);
CREATE INDEX manual_tags_tag ON manual_tags (tag_id);

CREATE TABLE manual_content (
  id text PRIMARY KEY,
  manual_id text NOT NULL REFERENCES manuals (id) ON DELETE CASCADE,
  extracted_text text NOT NULL,
  chunk_index integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX manual_content_created_at ON manual_content (created_at DESC);
CREATE INDEX manual_content_manual ON manual_content (manual_id, chunk_index);
