-- A manual's life is owned by product/manuals (issue 20): its ingestion is queued by the
-- TypeScript that saves it (the manuals service, and the REST hook for the manuals table),
-- no longer by a trigger that no TypeScript shows.
DROP TRIGGER manuals_queue_ingestion ON manuals;
DROP FUNCTION queue_manual_ingestion();

-- The text of an uploaded file, read once when it is uploaded (for its metadata) and used by
-- its ingestion instead of reading the file again; removed once ingested, or with the upload.
CREATE TABLE manual_file_texts (
  file_url text PRIMARY KEY,
  pages jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
