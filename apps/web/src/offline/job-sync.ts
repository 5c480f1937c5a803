import { STATUS_LABELS } from '@/components/jobs/job-status-select';
import { jobsTable, type Job } from '@/lib/tables';

import { isNetworkError } from './network-error';
import { addNotice, pendingChanges, removeChange, type OutboxEntry } from './offline-db';

const JOB_KINDS: OutboxEntry['kind'][] = ['job.create', 'job.status'];

/** A job as the list shows it: `pending` while the server does not have this version yet. */
export type ListedJob = Job & { pending?: boolean };

/** The server's (or the last saved) list with the user's waiting changes on top. */
export async function withPendingChanges(userId: string, rows: Job[]): Promise<ListedJob[]> {
  const jobs: ListedJob[] = [...rows];
  for (const change of await pendingChanges(userId, JOB_KINDS)) {
    if (change.kind === 'job.create') {
      if (!jobs.some((job) => job.id === change.job.id)) jobs.unshift({ ...change.job, pending: true });
    } else if (change.kind === 'job.status') {
      const index = jobs.findIndex((job) => job.id === change.jobId);
      if (index >= 0)
        jobs[index] = { ...jobs[index]!, status: change.status, updatedAt: change.updatedAt, pending: true };
    }
  }
  return jobs.sort((a, b) => b.createdAt - a.createdAt);
}

/** One change to the server. Returns a notice for the user when the server kept something else. */
async function send(change: OutboxEntry): Promise<string | undefined> {
  if (change.kind === 'job.create') {
    // Sent before but the answer was lost: the job is there already, so it is not made twice.
    if (await jobsTable.get(change.job.id)) return undefined;
    await jobsTable.create({ ...change.job });
    return undefined;
  }
  if (change.kind !== 'job.status') return undefined;
  const current = await jobsTable.get(change.jobId);
  if (!current)
    return `"${change.title}" was deleted, so its status change to ${STATUS_LABELS[change.status]} was not applied.`;
  // Last change wins: one made elsewhere after this one stays, and the user is told.
  if (Number(current.updatedAt) > change.updatedAt && current.status !== change.status) {
    return `Your change of "${change.title}" to ${STATUS_LABELS[change.status]} was not applied: it was changed to ${STATUS_LABELS[current.status]} on another device afterwards.`;
  }
  await jobsTable.update(change.jobId, { status: change.status, updatedAt: change.updatedAt });
  return undefined;
}

export type SyncResult = { sent: number; refused: Map<number, unknown>; offline: boolean };

/**
 * Sends the user's waiting job changes in the order they were made, one at a time, and stops
 * at the first that gets no answer (still offline). One tab at a time (Web Locks), so two open
 * tabs never send a change twice. A change the server refuses or that lost to a newer one is
 * removed from the queue and kept as a notice, never dropped silently.
 */
export async function sendJobChanges(userId: string): Promise<SyncResult> {
  const result: SyncResult = { sent: 0, refused: new Map(), offline: !navigator.onLine };
  if (result.offline) return result;
  const run = async () => {
    for (const change of await pendingChanges(userId, JOB_KINDS)) {
      try {
        const notice = await send(change);
        if (notice) {
          await addNotice(userId, notice);
          result.refused.set(change.seq, new Error(notice));
        } else {
          result.sent += 1;
        }
      } catch (error) {
        if (isNetworkError(error)) {
          result.offline = true;
          return;
        }
        const what =
          change.kind === 'job.create'
            ? `The new job "${change.job.title}"`
            : change.kind === 'job.status'
              ? `The status change of "${change.title}"`
              : 'A change';
        await addNotice(
          userId,
          `${what} could not be saved: ${error instanceof Error ? error.message : String(error)}`,
        );
        result.refused.set(change.seq, error);
      }
      await removeChange(change.seq);
    }
  };
  if (navigator.locks) await navigator.locks.request(`fieldassist-jobs-${userId}`, run);
  else await run();
  return result;
}
