-- Which version of the reading and chunking made a manual's chunks (CHUNKING_VERSION in
-- data/chunk-sections.ts). A better reader helps only the manuals read after it: the manuals
-- ingested until now get 0, so the ingestion worker reads each once more in the background.
-- NULL marks chunks not made by ingestion (a bench's generated rows), which are left alone.
ALTER TABLE manuals ADD COLUMN chunked_with integer;
UPDATE manuals SET chunked_with = 0 WHERE processing_status = 'ready';
-- A job that reads a ready manual again: the manual stays ready, and searchable on its old
-- chunks, until the new ones replace them in one transaction.
ALTER TABLE ingestion_jobs ADD COLUMN refresh boolean NOT NULL DEFAULT false;
