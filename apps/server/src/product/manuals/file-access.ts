import type { Role } from '@fieldassist/client/roles';
import type pg from 'pg';
import { manualVisibleTo } from './visibility.js';

/** The storage folder of the manual library. */
export const LIBRARY_FOLDER = 'manuals';

/** Whether a library file belongs to a manual this role may see (the one visibility rule). */
export async function libraryFileVisibleTo(
  pool: pg.Pool,
  { role, fileUrl }: { role: Role | null; fileUrl: string },
): Promise<boolean> {
  const { rows } = await pool.query<{ visible: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM manuals WHERE file_url = $1 AND ${manualVisibleTo(role)}) AS visible`,
    [fileUrl],
  );
  return rows[0]!.visible;
}
