import type pg from 'pg';

export interface ClaimedJob {
  id: number;
  manualId: string;
  attempts: number;
  /** The manual is ready and is read again (a newer chunking): it stays ready meanwhile. */
  refresh: boolean;
}

export const MAX_ATTEMPTS = 5;

/**
 * Claims the next job that is due, or whose worker's lease lapsed (its server died), a manual's
 * first reading before any refresh (a new upload does not wait for the library's re-reading), with
 * FOR UPDATE SKIP LOCKED so any number of workers on any number of instances share the queue.
 */
export async function claimJob(pool: pg.Pool, workerId: string, leaseSeconds: number): Promise<ClaimedJob | undefined> {
  const { rows } = await pool.query<{ id: string; manual_id: string; attempts: number; refresh: boolean }>(
    `UPDATE ingestion_jobs j
     SET status = 'running', attempts = attempts + 1, locked_by = $1, locked_until = now() + make_interval(secs => $2), updated_at = now()
     WHERE j.id = (
       SELECT id FROM ingestion_jobs
       WHERE (status = 'queued' AND run_after <= now()) OR (status = 'running' AND locked_until < now())
       ORDER BY refresh, run_after, id
       FOR UPDATE SKIP LOCKED
       LIMIT 1)
     RETURNING j.id, j.manual_id, j.attempts, j.refresh`,
    [workerId, leaseSeconds],
  );
  const row = rows[0];
  return row && { id: Number(row.id), manualId: row.manual_id, attempts: row.attempts, refresh: row.refresh };
}

/** Extends a running job's lease; false when another worker has taken it over. */
export async function renewLease(
  pool: pg.Pool,
  job: ClaimedJob,
  workerId: string,
  leaseSeconds: number,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE ingestion_jobs SET locked_until = now() + make_interval(secs => $3) WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [job.id, workerId, leaseSeconds],
  );
  return Boolean(rowCount);
}

/** Marks the job done inside the caller's transaction; false when the lease was lost (roll back). */
export async function completeJob(client: pg.PoolClient, job: ClaimedJob, workerId: string): Promise<boolean> {
  const { rowCount } = await client.query(
    `UPDATE ingestion_jobs SET status = 'done', locked_by = NULL, locked_until = NULL, last_error = NULL, updated_at = now()
     WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [job.id, workerId],
  );
  return Boolean(rowCount);
}

/**
 * Records a failure: retried later with exponential back-off (10 s, 20 s, 40 s, ...), or failed
 * for good when the file itself is the problem or the attempts are spent. 'lost' when another
 * worker has taken the job over meanwhile: nothing is recorded, the job is theirs.
 */
export async function failJob(
  pool: pg.Pool,
  job: ClaimedJob,
  workerId: string,
  reason: string,
  permanent: boolean,
): Promise<'retry' | 'failed' | 'lost'> {
  const outcome = permanent || job.attempts >= MAX_ATTEMPTS ? 'failed' : 'retry';
  const { rowCount } = await pool.query(
    `UPDATE ingestion_jobs
     SET status = $3, last_error = $4, locked_by = NULL, locked_until = NULL, updated_at = now(),
         run_after = now() + make_interval(secs => 10 * power(2, attempts - 1))
     WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [job.id, workerId, outcome === 'failed' ? 'failed' : 'queued', reason],
  );
  return rowCount ? outcome : 'lost';
}

/**
 * Hands a job back at once, without counting the attempt: its worker is shutting down, and
 * the next worker to look (this server's next start, or another instance) takes it.
 */
export async function releaseJob(pool: pg.Pool, job: ClaimedJob, workerId: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE ingestion_jobs
     SET status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = NULL, locked_until = NULL, run_after = now(), updated_at = now()
     WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [job.id, workerId],
  );
  return Boolean(rowCount);
}

/**
 * Ends the leases of running jobs whose worker was a process of this host that is gone (killed,
 * crashed), so a restarted server resumes them at once instead of after the lease. A worker id
 * is `host:pid:random`; a job of our own pid locked before this process started belongs to an
 * earlier process that had the same pid (a container's pid 1 after a restart).
 */
export async function expireLeasesOfDeadWorkers(
  pool: pg.Pool,
  host: string,
  isAlive: (pid: number) => boolean,
): Promise<number> {
  const startedAt = new Date(Date.now() - process.uptime() * 1000);
  const { rows } = await pool.query<{ id: string; locked_by: string; updated_at: Date }>(
    `SELECT id, locked_by, updated_at FROM ingestion_jobs WHERE status = 'running' AND locked_until > now() AND starts_with(locked_by, $1)`,
    [`${host}:`],
  );
  const dead = rows.filter(({ locked_by: lockedBy, updated_at: lockedAt }) => {
    const pid = Number(lockedBy.slice(host.length + 1).split(':')[0]);
    if (!Number.isInteger(pid)) return false;
    return pid === process.pid ? lockedAt < startedAt : !isAlive(pid);
  });
  for (const job of dead) {
    await pool.query(
      `UPDATE ingestion_jobs SET locked_until = now() WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
      [job.id, job.locked_by],
    );
  }
  return dead.length;
}

/**
 * Queues the ingestion of newly saved manuals, inside the transaction that saves them, and
 * wakes the workers when it commits. Ids that are not manuals, or already queued, are skipped.
 */
export async function enqueueManuals(client: pg.PoolClient, manualIds: string[]): Promise<void> {
  if (manualIds.length === 0) return;
  const { rowCount } = await client.query(
    'INSERT INTO ingestion_jobs (manual_id) SELECT id FROM manuals WHERE id = ANY ($1) ON CONFLICT (manual_id) DO NOTHING',
    [manualIds],
  );
  if (rowCount) await client.query("SELECT pg_notify('ingestion', '')");
}

/**
 * Queues again, as refreshes, the ready manuals whose chunks an older chunking made. Only a job
 * that is done is taken (a manual waiting for its first reading, or failed, is not), so servers
 * starting together queue each manual once. Returns how many were queued.
 */
export async function queueRefreshes(pool: pg.Pool, chunkingVersion: number): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE ingestion_jobs j
     SET status = 'queued', refresh = true, attempts = 0, run_after = now(), last_error = NULL, updated_at = now()
     FROM manuals m
     WHERE m.id = j.manual_id AND m.processing_status = 'ready' AND m.chunked_with < $1 AND j.status = 'done'`,
    [chunkingVersion],
  );
  if (rowCount) await pool.query("SELECT pg_notify('ingestion', '')");
  return rowCount ?? 0;
}
