import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

import { TabLoading } from '@/components/tab-loading';
import { client } from '@/lib/client';
import { errorMessage } from '@/lib/error-message';

import { findPassage } from './find-passage';
import type { ManualTarget } from './manual-target';
import { PassageNotFound } from './passage-not-found';
import { ViewerProblem } from './viewer-problem';

type Loaded = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; text: string };

/**
 * A Word or text manual: its text as the server extracts it (the same reading the chat's
 * passages come from), scrolled to the cited passage, which is marked.
 */
export function TextManual({ target }: { target: ManualTarget }) {
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const abort = new AbortController();
    client.data
      .extractFromUrl(target.fileUrl, { signal: abort.signal })
      .then((text) => setLoaded({ status: 'ready', text }))
      .catch(
        (error: unknown) =>
          !abort.signal.aborted &&
          setLoaded({ status: 'error', message: errorMessage(error, 'The manual could not be opened.') }),
      );
    return () => abort.abort();
  }, [target.fileUrl, attempt]);

  const text = loaded.status === 'ready' ? loaded.text : '';
  const ranges = target.quote ? findPassage([text], target.quote) : [];

  useLayoutEffect(() => {
    const box = scroller.current;
    const mark = box?.querySelector('mark');
    if (box && mark)
      box.scrollTop += mark.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3;
  }, [text, target]);

  if (loaded.status === 'loading') return <TabLoading label="Opening the manual…" />;
  if (loaded.status === 'error') {
    const retry = () => {
      setLoaded({ status: 'loading' });
      setAttempt((n) => n + 1);
    };
    return <ViewerProblem message={loaded.message} onRetry={retry} />;
  }

  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of ranges) {
    parts.push(
      text.slice(at, start),
      <mark key={start} className="rounded-sm bg-yellow-300 text-black shadow-[0_0_0_2px_var(--color-yellow-500)]">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  parts.push(text.slice(at));

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {target.quote && ranges.length === 0 && <PassageNotFound />}
      <div
        ref={scroller}
        role="region"
        tabIndex={0}
        aria-label="Manual text"
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain px-4 py-4 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset sm:px-6"
      >
        <div className="mx-auto max-w-prose text-base leading-relaxed whitespace-pre-wrap wrap-anywhere">{parts}</div>
      </div>
    </div>
  );
}
