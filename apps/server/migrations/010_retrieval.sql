-- Retrieval (issue 15): each chunk carries the heading of its section, weighted above the body
-- in the search vector, and a sentence embedding (512 float32, little-endian) for reranking.
-- A chunk without an embedding (every chunk ingested before this) is embedded in the background;
-- an empty one ('\x') is a chunk that is never to be embedded.

ALTER TABLE manual_content
  ADD COLUMN heading text NOT NULL DEFAULT '',
  ADD COLUMN embedding bytea;

ALTER TABLE manual_content DROP COLUMN search;
ALTER TABLE manual_content ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', heading), 'A') || setweight(to_tsvector('simple', heading), 'A')
  || to_tsvector('english', extracted_text) || to_tsvector('simple', extracted_text)) STORED;
CREATE INDEX manual_content_search ON manual_content USING gin (search);

-- The background indexer finds what it still has to embed without reading the embedded rows.
CREATE INDEX manual_content_unembedded ON manual_content (manual_id, chunk_index) WHERE embedding IS NULL;
