-- Retrieval at scale (issue 15): a page's search vector (~1.5 kB) made its row just longer than
-- TOAST's ~2 kB threshold, so the vector was stored out of line, and each candidate a question
-- reads cost a TOAST index entry and a TOAST page besides its row: most of the candidate query's
-- reads when the pages are not cached. The columns every candidate is read for (its id, manual,
-- heading and search vector) are kept in the row (MAIN: compressed in place if need be, out of
-- line only if a row could not fit a page); a long text and the embedding go out of line instead,
-- read only for the passages given to the model. (Left to themselves, a real page's id went out of
-- line before its embedding: sorting the candidates by id read the TOAST table at each comparison.)
ALTER TABLE manual_content
  ALTER COLUMN search SET STORAGE MAIN,
  ALTER COLUMN heading SET STORAGE MAIN,
  ALTER COLUMN id SET STORAGE MAIN,
  ALTER COLUMN manual_id SET STORAGE MAIN;
-- SET STORAGE applies to rows written after it: a no-op change of type rewrites the stored ones
-- (VACUUM FULL would too, but not inside a migration's transaction).
ALTER TABLE manual_content ALTER COLUMN chunk_index TYPE integer USING chunk_index + 0;
