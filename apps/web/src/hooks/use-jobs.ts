import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { client } from '@/lib/client';

import { jobsTable, type Job, type JobPriority, type JobStatus } from '@/lib/tables';

export interface NewJob {
  title: string;
  description: string;
  priority: JobPriority;
}

/**
 * The signed-in user's jobs, newest first, with create and status change (SPEC.md sections
 * 3, 4 and 7). Both writes reload the list. The server only ever returns the caller's rows.
 */
export function useJobs(userId: string) {
  const queryClient = useQueryClient();
  const queryKey = ['jobs', userId];
  const reload = () => queryClient.invalidateQueries({ queryKey });

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
    queryFn: () => jobsTable.list({ where: { userId }, orderBy: { createdAt: 'desc' } }),
  });

  const createJob = useMutation({
    mutationFn: (job: NewJob): Promise<Job> => {
      const now = Date.now();
      return jobsTable.create({ id: `job-${now}`, userId, ...job, status: 'pending', createdAt: now, updatedAt: now });
    },
    onSuccess: reload,
  });

  const updateStatus = useMutation({
    mutationFn: ({ id, status }: { id: string; status: JobStatus }) => jobsTable.update(id, { status, updatedAt: Date.now() }),
    onSuccess: reload,
  });

  return { jobs, createJob, updateStatus };
}
