import type { ChatSource } from '@fieldassist/client';
import { useEffect, useRef, useState } from 'react';

import { loadPdfjs, openPdf } from '@/components/manual-viewer/load-pdf';

import { sourceLabel } from './open-source';
import { SourceLink } from './source-link';

// The image's box, in CSS pixels: fixed, so the answer does not move when the page is drawn.
// For a whole page (no figure region known), a Letter or A4 page's shape at 240 px wide (the
// page's printed part, margins cut, is fitted inside).
const WIDTH = 240;
const HEIGHT = 310;
// Paler than this is paper, not ink.
const PAPER = 245;
// A figure's region (known from ingestion) gets a box of its own shape, at most this size and
// no wider than the answer, its size known before it is drawn: a wide wiring diagram fills a wide
// box instead of being a thin strip in a page-shaped one.
const FIGURE_WIDTH = 480;
const FIGURE_HEIGHT = 360;
// Room around a figure's region, in PDF points, so its edge lines are not cut.
const MARGIN = 8;
// At most this many CSS pixels per PDF point: a small figure is not blown up past its own detail.
const MAX_ZOOM = 2;

type Box = [number, number, number, number];

const boxOf = (region: string | undefined) => (region ? (region.split(',').map(Number) as Box) : undefined);

/** The figure's region with its margin, in PDF points: width and height. */
const regionSize = (box: Box) => [box[2] - box[0] + 2 * MARGIN, box[3] - box[1] + 2 * MARGIN] as const;

/** The size of the image's box, in CSS pixels (it shrinks to the answer's width, keeping its shape). */
function frameOf(box: Box | undefined): { width: number; height: number } {
  if (!box) return { width: WIDTH, height: HEIGHT };
  const [w, h] = regionSize(box);
  const zoom = Math.min(FIGURE_WIDTH / w, FIGURE_HEIGHT / h, MAX_ZOOM);
  return { width: Math.round(w * zoom), height: Math.round(h * zoom) };
}

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

/**
 * Draws one page of the PDF at `fileUrl` at thumbnail size, only the figure's region (PDF units)
 * when it is known, else the page's printed part; answers a PNG data URL.
 */
function drawPage(fileUrl: string, page: number, figureBox: Box | undefined): Promise<string> {
  const key = `${fileUrl}#${page}#${figureBox?.join(',') ?? 'page'}`;
  let image = drawn.get(key);
  if (!image) {
    image = (async () => {
      const pdfjs = await loadPdfjs();
      const task = openPdf(pdfjs, fileUrl);
      try {
        const pdfPage = await (await task.promise).getPage(page);
        const natural = pdfPage.getViewport({ scale: 1 });
        // The region to draw, in the page's viewport units at scale 1 (y downwards, rotation applied).
        let [left, top, width, height] = [0, 0, natural.width, natural.height];
        if (figureBox) {
          const [x0, y0, x1, y1] = natural.convertToViewportRectangle([
            figureBox[0] - MARGIN,
            figureBox[1] - MARGIN,
            figureBox[2] + MARGIN,
            figureBox[3] + MARGIN,
          ]);
          left = Math.max(0, Math.min(x0, x1));
          top = Math.max(0, Math.min(y0, y1));
          width = Math.min(natural.width, Math.max(x0, x1)) - left;
          height = Math.min(natural.height, Math.max(y0, y1)) - top;
        }
        const frame = frameOf(figureBox);
        const fit = Math.min(frame.width / width, frame.height / height);
        const scale = fit * Math.min(2, window.devicePixelRatio || 1);
        const viewport = pdfPage.getViewport({ scale, offsetX: -left * scale, offsetY: -top * scale });
        const canvas = document.createElement('canvas');
        canvas.width = Math.max(1, Math.floor(width * scale));
        canvas.height = Math.max(1, Math.floor(height * scale));
        await pdfPage.render({ canvas, viewport }).promise;
        return (figureBox ? canvas : printedPart(canvas)).toDataURL('image/png');
      } finally {
        // pdf.js's destroy rejects when the load it ends had failed: nothing is left to free.
        task.destroy().catch(() => undefined);
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
  // By value: the source object may be a new one on each render.
  const region = source.figureBox?.join(',');
  const frame = frameOf(boxOf(region));

  useEffect(() => {
    const element = box.current;
    if (!element || !page) return;
    let cancelled = false;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        drawPage(source.fileUrl, page, boxOf(region)).then(
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
  }, [source.fileUrl, page, region]);

  if (!page) return null;
  const label = sourceLabel(source);
  return (
    <span ref={box} className="my-2 block">
      <SourceLink
        source={source}
        aria-label={state.status === 'drawn' ? undefined : `Open ${label}`}
        className="group flex w-fit max-w-full flex-col items-start gap-1 rounded-md"
      >
        <span
          data-page-thumbnail={state.status}
          style={{ width: frame.width, maxWidth: '100%', aspectRatio: `${frame.width} / ${frame.height}` }}
          className="flex items-center justify-center overflow-hidden rounded-md border bg-white shadow-xs group-hover:border-primary"
        >
          {state.status === 'drawn' ? (
            <img
              src={state.src}
              alt={`Picture of ${label} (a figure or table). Opens the page.`}
              width={frame.width}
              height={frame.height}
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
