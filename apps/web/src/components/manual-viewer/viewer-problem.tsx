import { CircleAlert, RotateCw } from 'lucide-react';

import { Button } from '@/components/ui/button';

/** Why the manual could not be shown, with a way to try again (the download stays in the header). */
export function ViewerProblem({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
      <CircleAlert aria-hidden="true" className="size-10 text-destructive" />
      <p className="max-w-sm text-base font-medium text-foreground">{message}</p>
      <Button variant="outline" className="h-11 px-5 text-base" onClick={onRetry}>
        <RotateCw aria-hidden="true" className="size-5" />
        Try again
      </Button>
    </div>
  );
}
