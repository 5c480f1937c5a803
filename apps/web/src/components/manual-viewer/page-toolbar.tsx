import { ChevronLeft, ChevronRight, Minus, Plus } from 'lucide-react';

import { Button } from '@/components/ui/button';

type PageToolbarProps = {
  page: number;
  pageCount: number;
  zoom: number;
  canZoomOut: boolean;
  canZoomIn: boolean;
  onPage: (page: number) => void;
  onZoomOut: () => void;
  onZoomIn: () => void;
};

/** Under the page, in reach of a thumb: previous, the page number, next; zoom out and in. Every button is 44 px. */
export function PageToolbar({
  page,
  pageCount,
  zoom,
  canZoomOut,
  canZoomIn,
  onPage,
  onZoomOut,
  onZoomIn,
}: PageToolbarProps) {
  return (
    <div
      role="toolbar"
      aria-label="Pages and zoom"
      className="flex items-center justify-between gap-2 border-t bg-background px-2 pt-1.5 pb-[max(0.375rem,env(safe-area-inset-bottom))]"
    >
      <div className="flex items-center gap-1">
        <Button
          variant="outline"
          className="size-11"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          <ChevronLeft aria-hidden="true" className="size-6" />
        </Button>
        <p aria-live="polite" className="min-w-28 text-center text-base font-semibold tabular-nums">
          Page {page} of {pageCount}
        </p>
        <Button
          variant="outline"
          className="size-11"
          aria-label="Next page"
          disabled={page >= pageCount}
          onClick={() => onPage(page + 1)}
        >
          <ChevronRight aria-hidden="true" className="size-6" />
        </Button>
      </div>
      <div className="flex items-center gap-1">
        <Button variant="outline" className="size-11" aria-label="Zoom out" disabled={!canZoomOut} onClick={onZoomOut}>
          <Minus aria-hidden="true" className="size-6" />
        </Button>
        <span className="w-12 text-center text-sm font-medium tabular-nums max-sm:hidden">
          <span className="sr-only">Zoom </span>
          {Math.round(zoom * 100)}%
        </span>
        <Button variant="outline" className="size-11" aria-label="Zoom in" disabled={!canZoomIn} onClick={onZoomIn}>
          <Plus aria-hidden="true" className="size-6" />
        </Button>
      </div>
    </div>
  );
}
