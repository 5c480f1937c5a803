import { RefreshCw, WifiOff } from 'lucide-react';
import { useEffect, useRef } from 'react';

import { Button } from '@/components/ui/button';
import { updateNow, useUpdateReady } from '@/offline/service-worker';
import { useOnline } from '@/offline/use-online';

/**
 * Under the header: a clear line when the phone has no network (what still works, and that
 * changes are kept and sent later), and an offer to switch to a new version when one is ready.
 */
export function AppStatusBanner() {
  const online = useOnline();
  const updateReady = useUpdateReady();
  const box = useRef<HTMLDivElement>(null);

  // Screens sized to the viewport (the chat) leave room for the banner: --status-banner-height.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty('--status-banner-height', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--status-banner-height');
    };
  }, []);

  return (
    <div ref={box} aria-live="polite">
      {!online && (
        <div
          role="status"
          data-testid="offline-banner"
          className="border-b border-amber-300 bg-amber-100 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
        >
          <p className="mx-auto flex max-w-7xl items-start gap-2.5 px-4 py-2.5 text-base sm:px-6">
            <WifiOff className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <span>
              <strong>You are offline.</strong>{' '}
              <span className="max-sm:hidden">Your jobs, chats and saved manuals still open; changes</span>
              <span className="sm:hidden">Changes</span> are kept on this phone and sent when the network returns.
            </span>
          </p>
        </div>
      )}
      {updateReady && (
        <div data-testid="update-banner" className="border-b bg-card">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-2 px-4 py-2 sm:px-6">
            <p className="text-base">A new version of FieldAssist is ready.</p>
            <Button variant="outline" onClick={updateNow}>
              <RefreshCw aria-hidden="true" />
              Update now
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
