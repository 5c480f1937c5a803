import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';

import { TabLoading } from '@/components/tab-loading';

import type { Pdfjs } from './load-pdf';
import type { ManualTarget } from './manual-target';
import { PageToolbar } from './page-toolbar';
import { PassageNotFound } from './passage-not-found';
import { useDrawnPage } from './use-drawn-page';
import { usePinchZoom, type PinchOrigin } from './use-pinch-zoom';
import { ViewerProblem } from './viewer-problem';

const MIN_ZOOM = 0.5;
const MAX_ZOOM = 4;
const ZOOM_STEP = 1.25;
const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
// A page opens at least this wide, so 11 pt text is about 12 px, near the app's own text: twice
// the fitted width on a phone (where fitted, it would be 6 px), about the fitted width beside
// the chat. The scroll then goes to the passage.
const READABLE_PAGE_WIDTH = 680;
const startZoom = (width: number) => (width > 0 ? Math.max(1, Math.ceil((READABLE_PAGE_WIDTH / width) * 20) / 20) : 1);

type PdfPagesProps = { pdfjs: Pdfjs; doc: PDFDocumentProxy; target: ManualTarget };

/**
 * One page at a time, fitted to the width: previous and next (buttons or the arrow keys), zoom
 * (buttons, + and -, or two fingers), the cited passage marked and scrolled into view.
 */
export function PdfPages({ pdfjs, doc, target }: PdfPagesProps) {
  const startPage = Math.min(Math.max(target.page ?? 1, 1), doc.numPages);
  const [shown, setShown] = useState(target);
  const [page, setPage] = useState(startPage);
  const [chosenZoom, setZoom] = useState<number | null>(null);
  const [width, setWidth] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  // Where the last pinch was, and the page's width before it.
  const pinched = useRef<(PinchOrigin & { width: number }) | null>(null);
  const placed = useRef<{ page: number; target: ManualTarget } | null>(null);

  // Another source of this manual was opened: go to its page.
  if (shown !== target) {
    setShown(target);
    setPage(startPage);
  }

  const zoom = chosenZoom ?? startZoom(width);
  const quote = page === startPage ? target.quote : undefined;
  const { sheet, drawn, retry } = useDrawnPage({ pdfjs, doc, page, zoom, width, quote });

  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const observer = new ResizeObserver(() => setWidth(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // Once a page is drawn: a new page starts at its top, or at the cited passage; after a
  // pinch, the point between the fingers stays where it was.
  useEffect(() => {
    const box = scroller.current;
    if (!box || drawn.status !== 'drawn') return;
    if (placed.current?.page !== drawn.page || placed.current.target !== target) {
      placed.current = { page: drawn.page, target };
      const mark = drawn.marks[0];
      box.scrollTo({ left: 0, top: 0 });
      if (mark) {
        const at = mark.getBoundingClientRect();
        const view = box.getBoundingClientRect();
        box.scrollTo({
          left: Math.max(0, at.left - view.left - box.clientWidth / 4),
          top: Math.max(0, at.top - view.top - box.clientHeight / 3),
        });
      }
    } else if (pinched.current && sheet.current) {
      const { onPage, onScreen } = pinched.current;
      const rect = sheet.current.getBoundingClientRect();
      const ratio = rect.width / pinched.current.width;
      box.scrollLeft += rect.left + onPage.x * ratio - onScreen.x;
      box.scrollTop += rect.top + onPage.y * ratio - onScreen.y;
    }
    pinched.current = null;
  }, [drawn, target, sheet]);

  usePinchZoom(scroller, sheet, (ratio, origin) => {
    const next = clampZoom(zoom * ratio);
    if (next === zoom) {
      sheet.current?.style.removeProperty('transform');
      return;
    }
    pinched.current = { ...origin, width: (sheet.current?.getBoundingClientRect().width ?? 1) / ratio };
    setZoom(next);
  });

  const goTo = (next: number) => setPage(Math.min(Math.max(next, 1), doc.numPages));
  const zoomBy = (factor: number) => setZoom(clampZoom(zoom * factor));

  // The keys work wherever focus is inside the viewer (not while typing in a field).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const dialog = scroller.current?.closest('[role="dialog"]');
      const from = event.target as HTMLElement | null;
      if (
        !dialog ||
        !from ||
        !dialog.contains(from) ||
        from.closest('input, textarea, select') ||
        event.altKey ||
        event.ctrlKey ||
        event.metaKey
      )
        return;
      const action = {
        ArrowLeft: () => goTo(page - 1),
        PageUp: () => goTo(page - 1),
        ArrowRight: () => goTo(page + 1),
        PageDown: () => goTo(page + 1),
        '+': () => zoomBy(ZOOM_STEP),
        '=': () => zoomBy(ZOOM_STEP),
        '-': () => zoomBy(1 / ZOOM_STEP),
      }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {quote && drawn.status === 'drawn' && drawn.page === page && drawn.marks.length === 0 && <PassageNotFound />}
      <div
        ref={scroller}
        role="region"
        aria-label={`Page ${page} of ${doc.numPages}`}
        tabIndex={0}
        className="relative min-h-0 flex-1 touch-pan-x touch-pan-y overflow-auto overscroll-contain bg-muted outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
      >
        <div className="w-max min-w-full p-3">
          <div
            ref={sheet}
            data-drawn-page={drawn.status === 'drawn' ? drawn.page : undefined}
            className="relative mx-auto origin-top-left bg-white shadow-md"
          />
        </div>
        {drawn.status === 'drawing' && (
          <div className="absolute inset-0">
            <TabLoading label={`Drawing page ${page}…`} />
          </div>
        )}
        {drawn.status === 'error' && (
          <div className="absolute inset-0 flex bg-muted">
            <ViewerProblem message={`Page ${page} could not be drawn.`} onRetry={retry} />
          </div>
        )}
      </div>
      <PageToolbar
        page={page}
        pageCount={doc.numPages}
        zoom={zoom}
        canZoomOut={zoom > MIN_ZOOM}
        canZoomIn={zoom < MAX_ZOOM}
        onPage={goTo}
        onZoomOut={() => zoomBy(1 / ZOOM_STEP)}
        onZoomIn={() => zoomBy(ZOOM_STEP)}
      />
    </div>
  );
}
