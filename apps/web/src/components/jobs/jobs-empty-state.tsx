import { ClipboardList } from 'lucide-react';

/** SPEC.md section 2: 'No jobs yet' / 'Create your first job to get started'. */
export function JobsEmptyState() {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed bg-card px-4 py-12 text-center">
      <ClipboardList className="size-10 text-muted-foreground/60" aria-hidden="true" />
      <h2 className="font-semibold">No jobs yet</h2>
      <p className="text-sm text-muted-foreground">Create your first job to get started</p>
    </div>
  );
}
