-- Stored files: the logical path a client names (manuals/1700000000_pump.pdf) and the
-- unguessable key the bytes live under (on disk or in the bucket). The key is the
-- capability in the public URL (/files/<key>); the path never reaches the file system.
CREATE TABLE storage_objects (
  path text PRIMARY KEY,
  key text NOT NULL UNIQUE,
  -- The uploader (auth_accounts.id); null for files the server wrote with its service key.
  owner_id text,
  owner_email text,
  size bigint NOT NULL,
  content_type text NOT NULL,
  -- The name a download is saved as: the last segment of the path.
  file_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX storage_objects_owner ON storage_objects (owner_id);
