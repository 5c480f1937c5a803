-- Where on each of figure_pages its figure is, by page number: {"2": [left, bottom, right, top]}
-- in PDF units (points, y upwards), so the answer's small image shows the figure, not the whole
-- page. Empty for manuals ingested before this column: their pages are drawn whole.
ALTER TABLE manuals ADD COLUMN figure_boxes jsonb NOT NULL DEFAULT '{}';
