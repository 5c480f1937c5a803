-- The search vector read a file name as one word only ("sourcefile.ihx", "avrdude.conf"), so a
-- question about the "ihx" or the "conf file" never matched it: the parts of each name with a dot
-- between two characters and two letters are added as words of their own (the whole name stays; a
-- number such as 1.8k or 0.1 is not cut, nor "e.g.", whose letters would match options such as -e).
-- Only those names are added, so a chunk's other words keep their positions.
ALTER TABLE manual_content DROP COLUMN search;
ALTER TABLE manual_content ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', translate(heading, '<>', '  ')), 'A')
  || setweight(to_tsvector('simple', translate(heading, '<>/', '   ')), 'A')
  || to_tsvector('english', translate(extracted_text, '<>', '  '))
  || to_tsvector('simple', translate(extracted_text, '<>/', '   '))
  || to_tsvector('simple', regexp_replace(
       regexp_replace(translate(extracted_text, '<>/', '   '), '(\S*[[:alnum:]_]{2}\.[[:alpha:]]{2}\S*)|\S+', '\1', 'g'),
       '([[:alnum:]_]{2})\.(?=[[:alpha:]]{2})', '\1 ', 'g'))) STORED;
CREATE INDEX manual_content_search ON manual_content USING gin (search);

-- Rewriting the column fires no trigger: the counts of migration 015 are taken again.
DELETE FROM search_terms;
INSERT INTO search_terms (lexeme, chunks)
SELECT '', count(*) FROM manual_content HAVING count(*) > 0
UNION ALL SELECT lexeme, count(*) FROM manual_content, unnest(tsvector_to_array(search)) lexeme GROUP BY lexeme;
