import type pg from 'pg';
import { transaction } from '../db/pool.js';
import { ApiError } from '../errors.js';

/** One row of storage_objects: a logical path and the key its bytes are stored under. */
export interface StoredObject {
  path: string;
  key: string;
  ownerId: string | null;
  ownerEmail: string | null;
  size: number;
  contentType: string;
  fileName: string;
  createdAt: Date;
  updatedAt: Date;
}

const columns = `path, key, owner_id AS "ownerId", owner_email AS "ownerEmail", size::float8 AS size,
  content_type AS "contentType", file_name AS "fileName", created_at AS "createdAt", updated_at AS "updatedAt"`;

export async function findObjectByPath(db: pg.Pool | pg.PoolClient, path: string): Promise<StoredObject | undefined> {
  const { rows } = await db.query<StoredObject>(`SELECT ${columns} FROM storage_objects WHERE path = $1`, [path]);
  return rows[0];
}

export async function findObjectByKey(db: pg.Pool, key: string): Promise<StoredObject | undefined> {
  const { rows } = await db.query<StoredObject>(`SELECT ${columns} FROM storage_objects WHERE key = $1`, [key]);
  return rows[0];
}

export type NewObject = Omit<StoredObject, 'createdAt' | 'updatedAt'>;

/**
 * Records a written object under its path. An existing path is replaced only with
 * `upsert` and when `mayReplace` allows it (it throws otherwise); the replaced key is
 * returned so its bytes can be removed. Throws CONFLICT for an existing path without upsert.
 */
export async function saveObject(
  pool: pg.Pool,
  opts: { object: NewObject; upsert: boolean; mayReplace: (existing: StoredObject) => void },
): Promise<{ replacedKey?: string }> {
  const o = opts.object;
  // Two uploads to one new path race on the insert; the loser sees the winner's row.
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await transaction(pool, async (client) => {
      const inserted = await client.query(
        `INSERT INTO storage_objects (path, key, owner_id, owner_email, size, content_type, file_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (path) DO NOTHING`,
        [o.path, o.key, o.ownerId, o.ownerEmail, o.size, o.contentType, o.fileName],
      );
      if (inserted.rowCount === 1) return {};
      const { rows } = await client.query<StoredObject>(
        `SELECT ${columns} FROM storage_objects WHERE path = $1 FOR UPDATE`,
        [o.path],
      );
      const existing = rows[0];
      if (!existing) return undefined; // removed in between: try the insert again
      if (!opts.upsert) throw new ApiError('CONFLICT', 'File already exists. Set upsert: true to overwrite.');
      opts.mayReplace(existing);
      // The owner stays the original uploader: an admin replacing a file does not take it over.
      await client.query(
        `UPDATE storage_objects SET key = $2, size = $3, content_type = $4, file_name = $5, updated_at = now() WHERE path = $1`,
        [o.path, o.key, o.size, o.contentType, o.fileName],
      );
      return { replacedKey: existing.key };
    });
    if (result) return result;
  }
  throw new ApiError('CONFLICT', 'The file changed while it was being saved; try again');
}

/**
 * Deletes the rows of `paths` that exist, all or none: `mayRemove` sees each row first and
 * throws to refuse. Returns the removed rows (their keys still hold the bytes).
 */
export async function removeObjects(
  pool: pg.Pool,
  paths: string[],
  mayRemove: (object: StoredObject) => void,
): Promise<StoredObject[]> {
  return transaction(pool, async (client) => {
    const { rows } = await client.query<StoredObject>(
      `SELECT ${columns} FROM storage_objects WHERE path = ANY ($1) ORDER BY path FOR UPDATE`,
      [paths],
    );
    rows.forEach(mayRemove);
    await client.query('DELETE FROM storage_objects WHERE path = ANY ($1)', [rows.map((row) => row.path)]);
    return rows;
  });
}

/** Deletes the row of one key; returns whether there was one. */
export async function removeObjectByKey(pool: pg.Pool, key: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM storage_objects WHERE key = $1', [key]);
  return rowCount === 1;
}
