import type { ComponentProps } from 'react';

import { cn } from '@/lib/utils';

// shadcn/ui's badge, coloured by the caller (priority, role): only the shape lives here.
export function Badge({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      data-slot="badge"
      className={cn(
        'inline-flex w-fit shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap',
        className,
      )}
      {...props}
    />
  );
}
