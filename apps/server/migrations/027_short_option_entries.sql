-- A short option asked about ("what does -B do") was searched as its letter, which "Appendix B"
-- holds as well as the option's own entry ("-B bitclock ..."), and the parser never makes a word of
-- a dash and a letter. Each short option that begins a line (a dash, a letter and up to two letters
-- or digits, then a space, a comma or the line's end) is added to the chunk's search vector as one
-- lexeme with no position, case as printed ('-B' apart from '-b': every manual of the set tells them
-- apart). No word of the text makes such a lexeme, so it matches nothing else.
CREATE FUNCTION short_option_entries(body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(DISTINCT m[1])), ''::tsvector)
  FROM regexp_matches(body, '^[ \t]*(-[[:alpha:]][[:alnum:]]{0,2})(?![^\s,])', 'gn') m
$$;

-- The search vector of migration 024, with the option entries.
CREATE FUNCTION chunk_search(heading text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english', translate(heading, '<>', '  ')), 'A')
    || setweight(to_tsvector('simple', translate(heading, '<>/', '   ')), 'A')
    || to_tsvector('english', translate(body, '<>', '  '))
    || to_tsvector('simple', translate(body, '<>/', '   '))
    || to_tsvector('simple', regexp_replace(
         regexp_replace(translate(body, '<>/', '   '), '(\S*[[:alnum:]_]{2}\.[[:alpha:]]{2}\S*)|\S+', '\1', 'g'),
         '([[:alnum:]_]{2})\.(?=[[:alpha:]]{2})', '\1 ', 'g'))
    || short_option_entries(body)
$$;

-- A generated column takes a new expression only by rewriting every chunk (with its GIN entries and
-- search_terms recounted: minutes at 1,000,000 chunks), though only the few with an option line
-- change. The column is kept and its stored vectors with it, and is from now on set by a trigger to
-- the same expression whenever a chunk is stored or its heading or text changes (or the vector is
-- written directly): then only the chunks with an option line are rewritten here, and search_terms
-- is kept exact by its update trigger (migration 015), as for any change of a chunk's text.
ALTER TABLE manual_content ALTER COLUMN search DROP EXPRESSION;

CREATE FUNCTION set_chunk_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := chunk_search(NEW.heading, NEW.extracted_text);
  RETURN NEW;
END $$;

CREATE TRIGGER manual_content_search BEFORE INSERT OR UPDATE OF heading, extracted_text, search ON manual_content
  FOR EACH ROW EXECUTE FUNCTION set_chunk_search();

UPDATE manual_content SET search = chunk_search(heading, extracted_text)
WHERE short_option_entries(extracted_text) <> ''::tsvector;
