-- Retrieval (issue 15): a chunk is embedded from its first 600 characters, so the entry of an option
-- or command late in a list chunk ("--fsigned-char" at its end) is not in its embedding, and the rest
-- of the list blurs one that is. Each entry a chunk lists is embedded on its own too: their vectors
-- (100 float32 each, little-endian, one after another) in entry_embeddings, '\x' for a chunk that
-- lists none. NULL is not yet computed: the background indexer computes them for every chunk stored
-- until now, as it does embeddings, except a chunk marked never to be embedded (embedding '\x').
ALTER TABLE manual_content ADD COLUMN entry_embeddings bytea;

-- The indexer finds what it still has to do without reading the rows that are done.
DROP INDEX manual_content_unembedded;
CREATE INDEX manual_content_unembedded ON manual_content (manual_id, chunk_index)
  WHERE embedding IS NULL OR (entry_embeddings IS NULL AND embedding <> '\x');
