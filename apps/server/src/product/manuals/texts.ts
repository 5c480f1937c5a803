import type pg from 'pg';
import type { PageText } from '../../data/chunk.js';

// The text read from an uploaded file (migrations/007): read once at upload, used by ingestion.

export async function saveFileText(pool: pg.Pool, fileUrl: string, pages: PageText[]): Promise<void> {
  await pool.query(
    'INSERT INTO manual_file_texts (file_url, pages) VALUES ($1, $2) ON CONFLICT (file_url) DO UPDATE SET pages = EXCLUDED.pages',
    [fileUrl, JSON.stringify(pages)],
  );
}

/** The pages read when the file was uploaded, or undefined when they were not kept. */
export async function findFileText(db: pg.Pool | pg.PoolClient, fileUrl: string): Promise<PageText[] | undefined> {
  const { rows } = await db.query<{ pages: PageText[] }>('SELECT pages FROM manual_file_texts WHERE file_url = $1', [
    fileUrl,
  ]);
  return rows[0]?.pages;
}

export async function deleteFileText(db: pg.Pool | pg.PoolClient, fileUrl: string): Promise<void> {
  await db.query('DELETE FROM manual_file_texts WHERE file_url = $1', [fileUrl]);
}

/** Texts of uploads nobody saved within a day (a closed tab mid-review): their files are the owner's to remove. */
export async function deleteAbandonedFileTexts(pool: pg.Pool): Promise<void> {
  await pool.query(
    `DELETE FROM manual_file_texts t WHERE created_at < now() - interval '1 day' AND NOT EXISTS (SELECT 1 FROM manuals m WHERE m.file_url = t.file_url)`,
  );
}
