-- A line may open with several short options that one description serves ("-s, -u These options used
-- to control the obsolete safemode feature"): migration 027 indexed the first alone, so a question
-- about "-u" found no entry of it. Each option of such a list (short options separated by commas, the
-- list then followed by a space, a comma or the line's end) is now an entry too. "-e, --erase" is as
-- before: a long option is an identifier of its own.
CREATE OR REPLACE FUNCTION short_option_entries(body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_to_tsvector(array_agg(DISTINCT o)), ''::tsvector)
  FROM regexp_matches(body, '^[ \t]*(-[[:alpha:]][[:alnum:]]{0,2}(?:,[ \t]*-[[:alpha:]][[:alnum:]]{0,2})*)(?![^\s,])', 'gn') m,
    regexp_split_to_table(m[1], ',[ \t]*') o
$$;

-- Only the chunks with such a list change; search_terms is kept exact by its update trigger (migration 015).
UPDATE manual_content SET search = chunk_search(heading, extracted_text)
WHERE extracted_text ~ '(^|\n)[ \t]*-[[:alpha:]][[:alnum:]]{0,2},[ \t]*-[[:alpha:]]';
