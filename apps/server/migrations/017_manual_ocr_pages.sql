-- The pages of a manual whose text was read by OCR (scanned pages), in order; empty when none.
ALTER TABLE manuals ADD COLUMN ocr_pages integer[] NOT NULL DEFAULT '{}';
