import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { client } from '@/lib/client';
import { jobsTable, type Job, type JobPriority, type JobStatus } from '@/lib/tables';
import { sendJobChanges, withPendingChanges, type ListedJob } from '@/offline/job-sync';
import { isNetworkError } from '@/offline/network-error';
import { dismissNotice, enqueue, listNotices } from '@/offline/offline-db';
import { readThrough } from '@/offline/read-through';

export interface NewJob {
  title: string;
  description: string;
  priority: JobPriority;
}

export const jobsKey = (userId: string) => ['jobs', userId];
export const jobNoticesKey = (userId: string) => ['jobs', userId, 'notices'];

/**
 * The signed-in user's jobs, newest first, with create and status change (SPEC.md sections
 * 3, 4 and 7). The server only ever returns the caller's rows. Offline (issue 18) the list is
 * the last one read, and both writes go through the device's outbox: queued in IndexedDB,
 * shown at once as waiting, and sent in order when the network returns (useOutboxSync).
 */
export function useJobs(userId: string) {
  const queryClient = useQueryClient();
  const queryKey = jobsKey(userId);
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey }),
      queryClient.invalidateQueries({ queryKey: jobNoticesKey(userId) }),
    ]);

  // A job changed on another of the user's devices reloads the list here too (issue 7).
  useEffect(() => {
    let leave: (() => Promise<void>) | undefined;
    let gone = false;
    client.realtime
      .subscribe(`user:${userId}`, (message) => {
        if (message.type === 'jobs.changed') void queryClient.invalidateQueries({ queryKey: ['jobs', userId] });
      })
      .then(
        (channel) => (gone ? void channel.unsubscribe() : (leave = () => channel.unsubscribe())),
        (error: unknown) => console.warn('Live job updates are off:', error),
      );
    return () => {
      gone = true;
      void leave?.();
    };
  }, [queryClient, userId]);

  const jobs = useQuery({
    queryKey,
    queryFn: async (): Promise<ListedJob[]> => {
      const rows = await readThrough(`jobs:${userId}`, () =>
        jobsTable.list({ where: { userId }, orderBy: { createdAt: 'desc' } }),
      ).catch((error: unknown) => {
        if (isNetworkError(error)) return [] as Job[]; // offline before the list was ever read here
        throw error;
      });
      return withPendingChanges(userId, rows);
    },
    networkMode: 'always', // the list comes from the device when there is no network
  });

  const notices = useQuery({
    queryKey: jobNoticesKey(userId),
    queryFn: () => listNotices(userId),
    networkMode: 'always',
  });

  // Every write is queued first, then the queue is sent: so changes reach the server in the
  // order they were made, whether or not there was a network at the time.
  const queueAndSend = async (change: Parameters<typeof enqueue>[1]) => {
    const seq = await enqueue(userId, change);
    const result = await sendJobChanges(userId);
    await reload();
    const refusal = result.refused.get(seq);
    if (refusal) throw refusal;
  };

  const createJob = useMutation({
    mutationFn: (job: NewJob) => {
      const now = Date.now();
      return queueAndSend({
        kind: 'job.create',
        job: { id: `job-${now}`, userId, ...job, status: 'pending', createdAt: now, updatedAt: now },
      });
    },
    networkMode: 'always',
  });

  const updateStatus = useMutation({
    mutationFn: ({ id, status }: { id: string; status: JobStatus }) => {
      const title = jobs.data?.find((job) => job.id === id)?.title ?? id;
      return queueAndSend({ kind: 'job.status', jobId: id, title, status, updatedAt: Date.now() });
    },
    networkMode: 'always',
  });

  const dismiss = async (id: number) => {
    await dismissNotice(id);
    await queryClient.invalidateQueries({ queryKey: jobNoticesKey(userId) });
  };

  return { jobs, notices, dismiss, createJob, updateStatus };
}
