/**
 * A database that run.ts kept (`--keep-db`), opened for the offline scripts (sweep.ts,
 * abstain-features.ts): its pool, an embedder, the tuned questions and each candidate's page as
 * "manual:page". The held-out questions are not handed out: no offline tuning reads them.
 */
import { readFile } from 'node:fs/promises';
import { createPool } from '../../apps/server/src/db/pool.js';
import { createEmbedder } from '../../apps/server/src/product/retrieval/embedder.js';
import type { Question } from './score.js';

export async function openKeptDatabase(db: string) {
  const url = new URL(
    process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  url.pathname = `/${db}`;
  const pool = createPool(url.toString(), 10);
  const embedder = createEmbedder({ timeoutMs: 60_000, maxMemoryMb: 512 });
  const { questions } = JSON.parse(await readFile(new URL('./questions.json', import.meta.url), 'utf8')) as {
    questions: Question[];
  };
  const { rows } = await pool.query<{ id: string; file_name: string }>('SELECT id, file_name FROM manuals');
  const names = new Map(rows.map((m) => [m.id, m.file_name.replace(/\.pdf$/, '')]));
  return {
    pool,
    embedder,
    tuned: questions.filter((q) => q.split === 'tuned'),
    pageOf: (row: { manual_id: string; page_number: number | null }) =>
      `${names.get(row.manual_id)}:${row.page_number}`,
    close: async () => {
      await embedder.close();
      await pool.end();
    },
  };
}
