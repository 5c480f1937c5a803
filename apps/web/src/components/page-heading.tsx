import type { ReactNode } from 'react';

type PageHeadingProps = { title: string; subtitle?: string; action?: ReactNode };

/** A tab's title line: heading, subtitle and an optional action on the right. */
export function PageHeading({ title, subtitle, action }: PageHeadingProps) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        {subtitle && <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p>}
      </div>
      {action}
    </div>
  );
}
