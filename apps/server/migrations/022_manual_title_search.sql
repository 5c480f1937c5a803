-- Retrieval scores a candidate's manual title against the question's terms. Made from the title
-- at each question, the vectors of the 1,000-odd manuals of a long question's candidates in a
-- library of 1,000,000 chunks took about a third of the query (bench/README.md): made once here.
ALTER TABLE manuals ADD COLUMN title_search tsvector GENERATED ALWAYS AS (
  to_tsvector('english', title) || to_tsvector('simple', title)) STORED;
