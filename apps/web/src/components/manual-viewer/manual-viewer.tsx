import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Download, X } from 'lucide-react';
import { lazy, Suspense, useRef } from 'react';

import { TabLoading } from '@/components/tab-loading';
import { Button, buttonVariants } from '@/components/ui/button';
import { cn } from '@/lib/utils';

import { downloadUrlOf, isPdf, type ManualTarget } from './manual-target';
import { TextManual } from './text-manual';

/** The desktop panel's width: half the window, at most 44rem. */
export const PANEL_WIDTH = 'min(44rem, 50vw)';

// pdf.js and the page drawing load only when a PDF is first opened.
const PdfManual = lazy(() => import('./pdf-manual').then((m) => ({ default: m.PdfManual })));

type ManualViewerProps = { target: ManualTarget; asPanel: boolean; onClose: () => void };

/**
 * A manual at the cited page, inside the app: a panel beside the chat on a wide screen (the
 * chat stays usable), a full-screen sheet on a phone. Escape closes it and gives focus back
 * to what opened it.
 */
export function ManualViewer({ target, asPanel, onClose }: ManualViewerProps) {
  const content = useRef<HTMLDivElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Root open modal={!asPanel} onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          ref={content}
          aria-describedby={undefined}
          data-testid="manual-viewer"
          className={cn(
            'fixed z-50 flex flex-col bg-background text-foreground outline-none',
            asPanel ? 'top-16 right-0 bottom-0 border-l shadow-xl' : 'inset-0',
          )}
          style={asPanel ? { width: PANEL_WIDTH } : undefined}
          onOpenAutoFocus={(event) => {
            // Radix calls this again whenever its focus scope mounts anew while the viewer is
            // open, when the focused element may be the viewer itself: what had focus when the
            // viewer first opened is the one focus goes back to.
            const focused = document.activeElement;
            if (!returnTo.current && focused instanceof HTMLElement && !content.current?.contains(focused))
              returnTo.current = focused;
            // The viewer itself takes focus, so the arrow keys turn pages straight away.
            event.preventDefault();
            content.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            // Only once the viewer is gone (the same remount calls this too, while it is open).
            if (!content.current && returnTo.current?.isConnected) returnTo.current.focus();
          }}
          // Beside the chat, a tap in the chat (another source) must not close the panel.
          onInteractOutside={(event) => asPanel && event.preventDefault()}
        >
          <header className="flex min-h-15 items-center gap-2 border-b py-2 pr-2 pl-4">
            <DialogPrimitive.Title className="line-clamp-2 min-w-0 flex-1 text-base leading-snug font-semibold wrap-anywhere">
              {target.title || 'Manual'}
            </DialogPrimitive.Title>
            <a
              href={downloadUrlOf(target.fileUrl)}
              download
              className={cn(buttonVariants({ variant: 'outline' }), 'h-11 min-w-11 px-3 text-base')}
            >
              <Download aria-hidden="true" className="size-5" />
              <span className="max-sm:sr-only">Download</span>
            </a>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" className="size-11" aria-label="Close manual">
                <X aria-hidden="true" className="size-6" />
              </Button>
            </DialogPrimitive.Close>
          </header>
          {isPdf(target.fileUrl) ? (
            <Suspense fallback={<TabLoading label="Opening the manual…" />}>
              <PdfManual key={target.fileUrl} target={target} />
            </Suspense>
          ) : (
            <TextManual key={target.fileUrl} target={target} />
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
