import type { AuthUser } from '@fieldassist/client';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';

import { JobCard } from '@/components/jobs/job-card';
import { JobForm } from '@/components/jobs/job-form';
import { JobsEmptyState } from '@/components/jobs/jobs-empty-state';
import { PageHeading } from '@/components/page-heading';
import { TabLoading } from '@/components/tab-loading';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useJobs, type NewJob } from '@/hooks/use-jobs';
import { errorMessage } from '@/lib/error-message';

/** My Jobs (SPEC.md section 2): the user's own jobs, newest first, and the form to add one. */
export function JobsPage({ user }: { user: AuthUser }) {
  const { jobs, notices, dismiss, createJob, updateStatus } = useJobs(user.id);
  const [formOpen, setFormOpen] = useState(false);

  const create = async (job: NewJob) => {
    try {
      await createJob.mutateAsync(job);
      setFormOpen(false);
      if (!navigator.onLine)
        toast.info('Job saved on this phone', { description: 'It is sent when the network returns.' });
    } catch (error) {
      console.warn('Creating the job failed', error);
      toast.error(errorMessage(error, 'Failed to create job'));
    }
  };

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeading
        title="My Jobs"
        subtitle="Track and manage your field assignments"
        action={
          <Button
            onClick={() => setFormOpen((open) => !open)}
            aria-expanded={formOpen}
            variant={formOpen ? 'outline' : 'default'}
          >
            {formOpen ? <X aria-hidden="true" /> : <Plus aria-hidden="true" />}
            {formOpen ? 'Close Form' : 'Add Job'}
          </Button>
        }
      />
      {notices.data && notices.data.length > 0 && (
        <ul className="mb-4 grid gap-2" aria-label="Changes not applied">
          {notices.data.map((notice) => (
            <li
              key={notice.id}
              data-testid="job-notice"
              className="flex items-start gap-3 rounded-md border-2 border-destructive/40 bg-card px-3 py-2"
            >
              <p className="flex-1 py-2 text-base">{notice.text}</p>
              <Button variant="outline" onClick={() => void dismiss(notice.id)}>
                Dismiss
              </Button>
            </li>
          ))}
        </ul>
      )}
      {formOpen && <JobForm submitting={createJob.isPending} onSubmit={create} onCancel={() => setFormOpen(false)} />}
      {jobs.isPending && <TabLoading label="Loading jobs…" />}
      {jobs.isError && <Alert>{errorMessage(jobs.error, 'Failed to load jobs')}</Alert>}
      {jobs.data?.length === 0 && !formOpen && <JobsEmptyState />}
      {jobs.data && jobs.data.length > 0 && (
        <ul className="grid gap-3" aria-label="Jobs">
          {jobs.data.map((job) => (
            <JobCard
              key={job.id}
              job={job}
              updating={updateStatus.isPending && updateStatus.variables?.id === job.id}
              onStatusChange={(status) =>
                updateStatus.mutate(
                  { id: job.id, status },
                  {
                    onError: (error) => {
                      console.warn('Updating the job failed', error);
                      toast.error(errorMessage(error, 'Failed to update job'));
                    },
                  },
                )
              }
            />
          ))}
        </ul>
      )}
    </div>
  );
}
