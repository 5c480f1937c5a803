import { CircleAlert, CircleCheck, Clock } from 'lucide-react';

import type { JobStatus } from '@/lib/tables';
import { cn } from '@/lib/utils';

/** SPEC.md section 4: completed green, in-progress blue, otherwise yellow. */
export function JobStatusIcon({ status, className }: { status: JobStatus; className?: string }) {
  const common = cn('size-5 shrink-0', className);
  if (status === 'completed')
    return (
      <CircleCheck
        className={cn(common, 'text-green-600 dark:text-green-400')}
        aria-hidden="true"
        data-status={status}
      />
    );
  if (status === 'in-progress')
    return <Clock className={cn(common, 'text-blue-600 dark:text-blue-300')} aria-hidden="true" data-status={status} />;
  return <CircleAlert className={cn(common, 'text-yellow-500')} aria-hidden="true" data-status={status} />;
}
