-- Embeddings now come from static word vectors (100 float32) instead of the Universal Sentence
-- Encoder lite (512 float32), and the two do not compare: the old vectors are cleared, so the
-- background indexer embeds those chunks again (with its progress events). A chunk marked never
-- to be embedded ('\x') stays so.
UPDATE manual_content SET embedding = NULL WHERE octet_length(embedding) NOT IN (0, 400);
