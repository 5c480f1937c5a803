-- Manual ingestion (issue 4): a durable job per manual turns its file into searchable chunks.

ALTER TABLE manuals
  ADD COLUMN processing_status text NOT NULL DEFAULT 'pending' CHECK (processing_status IN ('pending', 'processing', 'ready', 'failed')),
  ADD COLUMN processing_error text,
  ADD COLUMN page_count integer;

-- Chunks keep their page. The search vector has the English stems (a question's words) and the
-- tokens as typed (part numbers and error codes such as PN-4471-B or E42).
ALTER TABLE manual_content
  ADD COLUMN page_number integer,
  ADD COLUMN search tsvector GENERATED ALWAYS AS (to_tsvector('english', extracted_text) || to_tsvector('simple', extracted_text)) STORED;
CREATE INDEX manual_content_search ON manual_content USING gin (search);

CREATE TABLE ingestion_jobs (
  id bigserial PRIMARY KEY,
  manual_id text NOT NULL UNIQUE REFERENCES manuals (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  -- A running job's lease: renewed while it works, taken over by another worker when it lapses.
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ingestion_jobs_ready ON ingestion_jobs (run_after) WHERE status IN ('queued', 'running');

-- Every manual gets its job however it was inserted (REST, SQL, a restore), and workers wake at once.
CREATE FUNCTION queue_manual_ingestion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ingestion_jobs (manual_id) VALUES (NEW.id) ON CONFLICT (manual_id) DO NOTHING;
  PERFORM pg_notify('ingestion', NEW.id);
  RETURN NEW;
END $$;
CREATE TRIGGER manuals_queue_ingestion AFTER INSERT ON manuals FOR EACH ROW EXECUTE FUNCTION queue_manual_ingestion();

-- Files of deleted manuals, removed from storage by the worker (a transaction cannot delete a file).
CREATE TABLE storage_garbage (
  file_url text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE FUNCTION collect_manual_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO storage_garbage (file_url) VALUES (OLD.file_url) ON CONFLICT DO NOTHING;
  PERFORM pg_notify('ingestion', '');
  RETURN OLD;
END $$;
CREATE TRIGGER manuals_collect_file AFTER DELETE ON manuals FOR EACH ROW EXECUTE FUNCTION collect_manual_file();
