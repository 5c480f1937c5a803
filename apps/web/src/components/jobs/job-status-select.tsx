import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { JOB_STATUSES, type JobStatus } from '@/lib/tables';

export const STATUS_LABELS: Record<JobStatus, string> = {
  pending: 'Pending',
  'in-progress': 'In Progress',
  completed: 'Completed',
};

type JobStatusSelectProps = {
  status: JobStatus;
  jobTitle: string;
  disabled?: boolean;
  onChange: (status: JobStatus) => void;
};

/** Any of the three statuses may be chosen directly (SPEC.md section 4). */
export function JobStatusSelect({ status, jobTitle, disabled, onChange }: JobStatusSelectProps) {
  return (
    <Select
      value={status}
      onValueChange={(value) => value !== status && onChange(value as JobStatus)}
      disabled={disabled}
    >
      <SelectTrigger aria-label={`Status of ${jobTitle}`} className="h-12 w-full sm:w-44">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {JOB_STATUSES.map((value) => (
          <SelectItem key={value} value={value}>
            {STATUS_LABELS[value]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
