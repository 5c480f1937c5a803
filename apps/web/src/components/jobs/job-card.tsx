import { CloudOff } from 'lucide-react';

import { JobStatusIcon } from '@/components/jobs/job-status-icon';
import { JobStatusSelect } from '@/components/jobs/job-status-select';
import { PriorityBadge } from '@/components/jobs/priority-badge';
import type { JobStatus } from '@/lib/tables';
import type { ListedJob } from '@/offline/job-sync';

type JobCardProps = { job: ListedJob; updating: boolean; onStatusChange: (status: JobStatus) => void };

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** One job of the list (SPEC.md section 2, My Jobs). */
export function JobCard({ job, updating, onStatusChange }: JobCardProps) {
  return (
    <li
      className="rounded-xl border bg-card p-4 shadow-sm sm:p-5"
      data-testid="job"
      data-job-id={job.id}
      data-status={job.status}
      data-pending={job.pending ? 'true' : undefined}
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="flex min-w-0 flex-1 gap-3">
          <JobStatusIcon status={job.status} className="mt-0.5" />
          <div className="min-w-0 flex-1">
            <h3 className="font-semibold wrap-anywhere">{job.title}</h3>
            <p className="mt-1 text-sm whitespace-pre-line text-muted-foreground wrap-anywhere">{job.description}</p>
            <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-muted-foreground">
              <span>Created {dateFormat.format(new Date(Number(job.createdAt)))}</span>
              <PriorityBadge priority={job.priority} />
              {job.pending && (
                <span className="inline-flex items-center gap-1 font-medium text-foreground">
                  <CloudOff className="size-4" aria-hidden="true" />
                  Waiting for network
                </span>
              )}
            </div>
          </div>
        </div>
        <JobStatusSelect status={job.status} jobTitle={job.title} disabled={updating} onChange={onStatusChange} />
      </div>
    </li>
  );
}
