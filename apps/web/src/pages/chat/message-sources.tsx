import type { ChatSource } from '@fieldassist/client';
import { FileText } from 'lucide-react';
import { useId } from 'react';

import { sourceLabel } from './open-source';
import { SourceLink } from './source-link';

/** The manual pages an answer cites, numbered as its inline citations [1], [2] are. */
export function MessageSources({ sources }: { sources: ChatSource[] }) {
  const headingId = useId();
  if (sources.length === 0) return null;
  return (
    <div className="mt-3 border-t pt-2">
      <p id={headingId} className="text-sm font-semibold text-foreground">
        Sources
      </p>
      <ol aria-labelledby={headingId} className="mt-1 flex flex-col">
        {sources.map((source, i) => (
          <li key={`${source.manualId}:${source.page ?? ''}`} className="flex min-w-0 items-center gap-2 text-base">
            <span aria-hidden="true" className="w-5 shrink-0 text-right font-semibold text-foreground tabular-nums">
              {i + 1}
            </span>
            <FileText aria-hidden="true" className="size-4 shrink-0 text-primary" />
            <SourceLink
              source={source}
              className="flex min-h-11 min-w-0 items-center rounded-sm font-medium text-primary underline underline-offset-2 wrap-anywhere hover:text-primary/80"
            >
              {sourceLabel(source)}
            </SourceLink>
          </li>
        ))}
      </ol>
    </div>
  );
}
