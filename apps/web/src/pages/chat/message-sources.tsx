import type { ChatSource } from '@fieldassist/client';
import { FileText } from 'lucide-react';
import { useId, type MouseEvent } from 'react';

import { openManual } from '@/components/manual-viewer/open-manual';

/** The manual at the cited page; PDF viewers open `#page=N`. Only web addresses become links. */
function hrefOf(source: ChatSource): string | undefined {
  try {
    const url = new URL(source.fileUrl, window.location.href);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (source.page) url.hash = `page=${source.page}`;
    return url.toString();
  } catch {
    return undefined;
  }
}

/**
 * The manuals and pages an answer was grounded on. A tap opens the page in the app's viewer
 * with the passage marked; the link still opens the file in a new tab (Ctrl-click, middle click).
 */
export function MessageSources({ sources }: { sources: ChatSource[] }) {
  const headingId = useId();
  if (sources.length === 0) return null;
  return (
    <div className="mt-3 border-t pt-2">
      <p id={headingId} className="text-xs font-medium text-muted-foreground">
        Sources
      </p>
      <ul aria-labelledby={headingId} className="mt-1 flex flex-col">
        {sources.map((source) => {
          const href = hrefOf(source);
          const label = `${source.title || 'Manual'}${source.page ? `, page ${source.page}` : ''}`;
          const open = (event: MouseEvent) => {
            if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            openManual(source);
          };
          return (
            <li key={`${source.manualId}:${source.page ?? ''}`} className="flex min-w-0 items-center gap-1.5 text-sm">
              <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              {href ? (
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  onClick={open}
                  // A whole row to aim at with a gloved thumb.
                  className="flex min-h-11 min-w-0 items-center rounded-sm font-medium text-primary underline underline-offset-2 wrap-anywhere focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                >
                  {label}
                </a>
              ) : (
                <span className="wrap-anywhere">{label}</span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
