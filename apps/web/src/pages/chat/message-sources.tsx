import type { ChatSource } from '@fieldassist/client';
import { FileText } from 'lucide-react';
import { useId } from 'react';

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

/** The manuals and pages an answer was grounded on, each opening in a new tab. */
export function MessageSources({ sources }: { sources: ChatSource[] }) {
  const headingId = useId();
  if (sources.length === 0) return null;
  return (
    <div className="mt-3 border-t pt-2">
      <p id={headingId} className="text-sm font-medium text-muted-foreground">
        Sources
      </p>
      <ul aria-labelledby={headingId} className="mt-1 flex flex-col gap-1">
        {sources.map((source) => {
          const href = hrefOf(source);
          const label = `${source.title || 'Manual'}${source.page ? `, page ${source.page}` : ''}`;
          return (
            <li key={`${source.manualId}:${source.page ?? ''}`} className="flex min-w-0 items-center gap-1.5 text-base">
              <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              {href ? (
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="flex min-h-11 items-center rounded-sm font-medium text-primary underline underline-offset-2 wrap-anywhere focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
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
