import type { ChatSource } from '@fieldassist/client';
import type { MouseEvent, ReactNode } from 'react';

import { cn } from '@/lib/utils';

import { openSource, sourceHref } from './open-source';

/**
 * A link to a cited manual page. It keeps a real href (long press, copy link, open in a new tab
 * work) but a plain click or tap goes through openSource, as every source does.
 */
export function SourceLink({
  source,
  className,
  children,
  ...aria
}: {
  source: ChatSource;
  className?: string;
  children: ReactNode;
  'aria-label'?: string;
}) {
  const href = sourceHref(source);
  if (!href) return <span className={className}>{children}</span>;
  const open = (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    openSource(source);
  };
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={open}
      className={cn('focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none', className)}
      {...aria}
    >
      {children}
    </a>
  );
}
