import { Badge } from '@/components/ui/badge';
import type { JobPriority } from '@/lib/tables';

// SPEC.md section 4: red for high, yellow for medium, green for low.
const colours: Record<JobPriority, string> = {
  high: 'border-red-200 bg-red-100 text-red-900',
  medium: 'border-yellow-200 bg-yellow-100 text-yellow-900',
  low: 'border-green-200 bg-green-100 text-green-900',
};

/** '{PRIORITY} PRIORITY' in the priority's colour. */
export function PriorityBadge({ priority }: { priority: JobPriority }) {
  return (
    <Badge className={colours[priority] ?? colours.medium} data-priority={priority}>
      {priority.toUpperCase()} PRIORITY
    </Badge>
  );
}
