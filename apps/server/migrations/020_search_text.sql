-- The search vector read text in angle brackets as markup and dropped it ("-p <partno>",
-- "<NO FLOAT>", even "a < b and c > d"), and read a path as one word only, so
-- "/usr/local/etc/avrdude.conf" never matched avrdude.conf: the brackets are read as spaces, and
-- the simple part reads a path's names apart (the English part keeps the whole path).
ALTER TABLE manual_content DROP COLUMN search;
ALTER TABLE manual_content ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', translate(heading, '<>', '  ')), 'A')
  || setweight(to_tsvector('simple', translate(heading, '<>/', '   ')), 'A')
  || to_tsvector('english', translate(extracted_text, '<>', '  '))
  || to_tsvector('simple', translate(extracted_text, '<>/', '   '))) STORED;
CREATE INDEX manual_content_search ON manual_content USING gin (search);

-- Rewriting the column fires no trigger: the counts of migration 015 are taken again.
DELETE FROM search_terms;
INSERT INTO search_terms (lexeme, chunks)
SELECT '', count(*) FROM manual_content HAVING count(*) > 0
UNION ALL SELECT lexeme, count(*) FROM manual_content, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme;
