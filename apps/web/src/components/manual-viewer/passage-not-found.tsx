import { Info } from 'lucide-react';

/** Said when the cited passage cannot be found where the source points (the page is still shown). */
export function PassageNotFound() {
  return (
    <p role="status" className="flex items-center gap-2 border-b bg-muted px-4 py-2 text-sm text-foreground">
      <Info aria-hidden="true" className="size-4 shrink-0" />
      The cited passage could not be marked here.
    </p>
  );
}
