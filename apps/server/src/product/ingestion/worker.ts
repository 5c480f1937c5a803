import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CHUNKING_VERSION } from '../../data/chunk-sections.js';
import { isAlive } from '../../db/embedded.js';
import { deleteAbandonedFileTexts } from '../manuals/texts.js';
import { type IngestionDeps, ingestManual } from './ingest-manual.js';
import { claimJob, expireLeasesOfDeadWorkers, queueRefreshes, renewLease } from './queue.js';

export interface WorkerOptions {
  leaseSeconds?: number;
  pollMs?: number;
}

/**
 * The in-process ingestion worker: works through the job table one manual at a time (the
 * extraction itself runs in worker threads), wakes at once on NOTIFY and polls as a fallback,
 * renews its lease while it works, reads again the manuals an older chunking read, and removes
 * the files of deleted manuals.
 */
export function startIngestionWorker(deps: IngestionDeps, { leaseSeconds = 120, pollMs = 2000 }: WorkerOptions = {}) {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  let running = true;
  const stopping = new AbortController();
  let wake: () => void = () => undefined;
  let listener: { drop: () => void } | undefined;

  const listen = async () => {
    const client = await deps.pool.connect().catch(() => undefined);
    if (!client) return;
    let dropped = false;
    // Each connection is given back once, destroyed (it still LISTENs); the error handler stays
    // attached for good, so an error after that (the database going away) is never unhandled.
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (listener === own) listener = undefined; // polling carries on; the next loop listens again
      client.release(true);
    };
    const own = { drop };
    client.on('notification', () => wake());
    client.on('error', drop);
    try {
      await client.query('LISTEN ingestion');
      listener = own;
    } catch {
      drop();
    }
  };

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    // Manuals a killed server of this host was ingesting are taken up again now, not after the lease.
    await expireLeasesOfDeadWorkers(deps.pool, hostname(), isAlive).catch((error: Error) =>
      deps.log.warn(`ingestion worker: ${error.message}`),
    );
    // Manuals an older version of the chunking read are read again, one by one, behind new uploads.
    await queueRefreshes(deps.pool, CHUNKING_VERSION)
      .then(
        (n) =>
          n && deps.log.info(`ingestion worker: ${n} manuals queued to be read again (chunking ${CHUNKING_VERSION})`),
      )
      .catch((error: Error) => deps.log.warn(`ingestion worker: ${error.message}`));
    while (running) {
      try {
        if (!listener) await listen();
        await collectGarbage(deps);
        const job = await claimJob(deps.pool, workerId, leaseSeconds);
        if (!job) {
          await sleep();
          continue;
        }
        const heartbeat = setInterval(
          () => void renewLease(deps.pool, job, workerId, leaseSeconds).catch(() => undefined),
          (leaseSeconds * 1000) / 3,
        );
        try {
          await ingestManual(deps, job, workerId, stopping.signal);
        } finally {
          clearInterval(heartbeat);
        }
      } catch (error) {
        // The database went away (restart, network): wait and try again.
        deps.log.warn(`ingestion worker: ${(error as Error).message}`);
        await sleep();
      }
    }
  })();

  return {
    workerId,
    wake: () => wake(),
    async stop() {
      running = false;
      stopping.abort();
      wake();
      await loop;
      listener?.drop();
    },
  };
}

async function collectGarbage(deps: IngestionDeps) {
  await deleteAbandonedFileTexts(deps.pool);
  // A file another manual still points to (two rows saved for one upload) is kept.
  await deps.pool.query(
    'DELETE FROM storage_garbage g WHERE EXISTS (SELECT 1 FROM manuals m WHERE m.file_url = g.file_url)',
  );
  const { rows } = await deps.pool.query<{ file_url: string }>('SELECT file_url FROM storage_garbage LIMIT 20');
  for (const { file_url: url } of rows) {
    try {
      await deps.files.removeByPublicUrl(url); // removing twice (two workers) is harmless
      await deps.pool.query('DELETE FROM storage_garbage WHERE file_url = $1', [url]);
    } catch (error) {
      deps.log.warn(`could not remove ${url} yet: ${(error as Error).message}`); // kept for the next round
    }
  }
}
