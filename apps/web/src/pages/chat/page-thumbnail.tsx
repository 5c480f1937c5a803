import type { ChatSource } from '@fieldassist/client';
import { useEffect, useRef, useState } from 'react';

import { loadPdfjs, openPdf } from '@/components/manual-viewer/load-pdf';

import { sourceLabel } from './open-source';
import { SourceLink } from './source-link';

// The image's box, in CSS pixels: fixed, so the answer does not move when the page is drawn.
// A Letter or A4 page's shape at 240 px wide (the page's printed part, margins cut, is fitted inside).
const WIDTH = 240;
const HEIGHT = 310;
// Paler than this is paper, not ink.
const PAPER = 245;

/** The part of the drawn page that holds ink, with a little room around it: the margins go, so the figure is larger. */
function printedPart(canvas: HTMLCanvasElement): HTMLCanvasElement {
  const { width, height } = canvas;
  const pixels = canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (Math.min(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!) >= PAPER) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  if (right < 0) return canvas; // a blank page
  const room = Math.round(width * 0.03);
  [left, top] = [Math.max(0, left - room), Math.max(0, top - room)];
  [right, bottom] = [Math.min(width, right + room), Math.min(height, bottom + room)];
  const part = document.createElement('canvas');
  part.width = right - left;
  part.height = bottom - top;
  part.getContext('2d')!.drawImage(canvas, left, top, part.width, part.height, 0, 0, part.width, part.height);
  return part;
}

/** Pages already drawn, by file and page: an answer scrolled past again is not drawn again. */
const drawn = new Map<string, Promise<string>>();

/** Draws one page of the PDF at `fileUrl` at thumbnail size; answers a PNG data URL. */
function drawPage(fileUrl: string, page: number): Promise<string> {
  const key = `${fileUrl}#${page}`;
  let image = drawn.get(key);
  if (!image) {
    image = (async () => {
      const pdfjs = await loadPdfjs();
      const task = openPdf(pdfjs, fileUrl);
      try {
        const pdfPage = await (await task.promise).getPage(page);
        const natural = pdfPage.getViewport({ scale: 1 });
        const scale =
          Math.min(WIDTH / natural.width, HEIGHT / natural.height) * Math.min(2, window.devicePixelRatio || 1);
        const viewport = pdfPage.getViewport({ scale });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        await pdfPage.render({ canvas, viewport }).promise;
        return printedPart(canvas).toDataURL('image/png');
      } finally {
        void task.destroy();
      }
    })();
    drawn.set(key, image);
    // A failure (offline, file gone) may be tried again when the answer is shown again.
    image.catch(() => drawn.delete(key));
  }
  return image;
}

type State = { status: 'waiting' } | { status: 'drawn'; src: string } | { status: 'failed' };

/**
 * A small image of a cited PDF page that holds a figure, a diagram or a table, so the
 * technician sees it without opening anything; tapping it opens the page in the viewer, as the
 * citation does. pdf.js is loaded and the page drawn only once the image comes near the screen.
 */
export function PageThumbnail({ source }: { source: ChatSource }) {
  const box = useRef<HTMLSpanElement>(null);
  const [state, setState] = useState<State>({ status: 'waiting' });
  const page = source.page;

  useEffect(() => {
    const element = box.current;
    if (!element || !page) return;
    let cancelled = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        drawPage(source.fileUrl, page).then(
          (src) => !cancelled && setState({ status: 'drawn', src }),
          () => !cancelled && setState({ status: 'failed' }),
        );
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [source.fileUrl, page]);

  if (!page) return null;
  const label = sourceLabel(source);
  return (
    <span ref={box} className="my-2 block">
      <SourceLink
        source={source}
        aria-label={state.status === 'drawn' ? undefined : `Open ${label}`}
        className="group inline-flex flex-col items-start gap-1 rounded-md"
      >
        <span
          data-page-thumbnail={state.status}
          style={{ width: WIDTH, height: HEIGHT }}
          className="flex items-center justify-center overflow-hidden rounded-md border bg-white shadow-xs group-hover:border-primary"
        >
          {state.status === 'drawn' ? (
            <img
              src={state.src}
              alt={`Picture of ${label} (a figure or table). Opens the page.`}
              width={WIDTH}
              height={HEIGHT}
              className="size-full object-contain"
            />
          ) : (
            <span className="px-3 text-center text-sm text-muted-foreground">
              {state.status === 'failed' ? `Page ${page}: tap to open` : `Page ${page}`}
            </span>
          )}
        </span>
        <span aria-hidden="true" className="text-sm font-medium text-primary underline underline-offset-2">
          Open page {page}
        </span>
      </SourceLink>
    </span>
  );
}
