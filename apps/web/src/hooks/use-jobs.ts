import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

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
