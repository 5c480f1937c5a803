-- Retrieval at scale (issue 15): how many chunks hold each lexeme of the search vectors, kept
-- exact in the transaction that inserts, changes or deletes chunks, so a question's terms are
-- weighted by their rarity with one indexed read instead of counting rows or guessing from
-- ANALYZE's sample. The row for '' (never a lexeme) counts the chunks themselves.

CREATE TABLE search_terms (
  lexeme text PRIMARY KEY,
  chunks bigint NOT NULL
);

-- Counts are added in lexeme order, so two transactions changing chunks at once lock the rows
-- they share in the same order and wait for each other instead of deadlocking.
CREATE FUNCTION count_search_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_terms (lexeme, chunks)
    SELECT lexeme, sum(n) FROM (
      SELECT '' AS lexeme, count(*) AS n FROM new_chunks
      UNION ALL SELECT lexeme, count(*) FROM new_chunks, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme) t
    GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (lexeme) DO UPDATE SET chunks = search_terms.chunks + EXCLUDED.chunks;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO search_terms (lexeme, chunks)
    SELECT lexeme, -sum(n) FROM (
      SELECT '' AS lexeme, count(*) AS n FROM old_chunks
      UNION ALL SELECT lexeme, count(*) FROM old_chunks, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme) t
    GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (lexeme) DO UPDATE SET chunks = search_terms.chunks + EXCLUDED.chunks;
  ELSIF TG_OP = 'TRUNCATE' THEN
    DELETE FROM search_terms;
  ELSE
    -- An update changes the counts only where a chunk's text or heading changed (the indexer's
    -- embedding updates change none).
    INSERT INTO search_terms (lexeme, chunks)
    SELECT lexeme, sum(n) FROM (
      SELECT lexeme, -1 AS n FROM old_chunks o JOIN new_chunks c USING (id), unnest(tsvector_to_array(o.search)) lexeme
      WHERE o.search <> c.search
      UNION ALL SELECT lexeme, 1 FROM old_chunks o JOIN new_chunks c USING (id), unnest(tsvector_to_array(c.search)) lexeme
      WHERE o.search <> c.search) t
    GROUP BY lexeme HAVING sum(n) <> 0 ORDER BY lexeme
    ON CONFLICT (lexeme) DO UPDATE SET chunks = search_terms.chunks + EXCLUDED.chunks;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER manual_content_terms_insert AFTER INSERT ON manual_content
  REFERENCING NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION count_search_terms();
CREATE TRIGGER manual_content_terms_delete AFTER DELETE ON manual_content
  REFERENCING OLD TABLE AS old_chunks FOR EACH STATEMENT EXECUTE FUNCTION count_search_terms();
CREATE TRIGGER manual_content_terms_update AFTER UPDATE ON manual_content
  REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks FOR EACH STATEMENT EXECUTE FUNCTION count_search_terms();

CREATE TRIGGER manual_content_terms_truncate AFTER TRUNCATE ON manual_content
  FOR EACH STATEMENT EXECUTE FUNCTION count_search_terms();

-- The chunks already stored (none in a new install, whose table then stays empty: backup's
-- restore and migrate-data copy only into an install with no rows).
INSERT INTO search_terms (lexeme, chunks)
SELECT '', count(*) FROM manual_content HAVING count(*) > 0
UNION ALL SELECT lexeme, count(*) FROM manual_content, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme;
