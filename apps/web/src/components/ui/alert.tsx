import { CircleAlert, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';

import { cn } from '@/lib/utils';

type AlertProps = { variant?: 'error' | 'success'; children: ReactNode; className?: string };

/**
 * A message under a form. Errors are announced at once (role="alert"); successes politely.
 */
export function Alert({ variant = 'error', children, className }: AlertProps) {
  const Icon = variant === 'error' ? CircleAlert : CircleCheck;
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn(
        'flex items-start gap-2.5 rounded-md border px-3 py-2.5 text-sm leading-snug',
        variant === 'error'
          ? 'border-destructive/30 bg-destructive/5 text-destructive'
          : 'border-emerald-600/30 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
        className,
      )}
    >
      <Icon className="mt-px size-4 shrink-0" aria-hidden="true" />
      <div>{children}</div>
    </div>
  );
}
