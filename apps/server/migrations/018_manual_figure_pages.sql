-- The pages of a PDF manual that hold a figure, a diagram or a ruled table, in order: an answer
-- citing one shows a small image of the page. Empty for Word and text manuals, and for manuals
-- ingested before this column (until they are ingested again).
ALTER TABLE manuals ADD COLUMN figure_pages integer[] NOT NULL DEFAULT '{}';
