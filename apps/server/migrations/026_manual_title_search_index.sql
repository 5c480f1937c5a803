-- Retrieval at scale (issue 15): the manuals a question names (retrieve.ts findNamedManuals) are
-- those whose title holds one of its rarer words. Without an index every manual's title vector was
-- matched against each word: in bench/retrieval/scale.ts's library of 10,003 manuals, 30,000
-- matches and about 30 ms a question beside the candidate query; with it, about 2 ms.
CREATE INDEX manuals_title_search ON manuals USING gin (title_search);
