import type { PDFDocumentProxy, RenderTask, TextLayer } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';

import type { Pdfjs } from './load-pdf';
import { markPassage } from './mark-passage';
import './text-layer.css';

export type DrawnPage =
  { status: 'drawing' } | { status: 'drawn'; page: number; marks: HTMLElement[] } | { status: 'error' };

// Past about 16 million pixels a canvas fails on phones: a deep zoom is drawn a little softer instead.
const MAX_CANVAS_PIXELS = 16_000_000;
/** Room left around the page in the scroll area, in CSS pixels. */
export const PAGE_GUTTER = 12;

type DrawOptions = {
  pdfjs: Pdfjs;
  doc: PDFDocumentProxy;
  page: number;
  /** 1 fits the page to `width`. */
  zoom: number;
  width: number;
  quote?: string;
};

/**
 * Draws one page of `doc` into the element given `sheet` as its ref: the canvas, and the text layer over it with `quote`
 * marked. Only this page is fetched and drawn, so a manual of any length opens as fast as its
 * cited page. The page on screen stays until the next one is ready, then they swap.
 */
export function useDrawnPage({ pdfjs, doc, page, zoom, width, quote }: DrawOptions) {
  const sheet = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<DrawnPage>({ status: 'drawing' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (width <= 0) return;
    let cancelled = false;
    let rendering: RenderTask | undefined;
    let textLayer: TextLayer | undefined;

    void (async () => {
      const pdfPage = await doc.getPage(page);
      if (cancelled) return;
      const fit = Math.max(0.1, (width - 2 * PAGE_GUTTER) / pdfPage.getViewport({ scale: 1 }).width);
      const scale = fit * zoom;
      const viewport = pdfPage.getViewport({ scale });
      const pixelRatio = Math.min(
        window.devicePixelRatio || 1,
        Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
      );
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width * pixelRatio);
      canvas.height = Math.floor(viewport.height * pixelRatio);
      canvas.style.cssText = 'display:block;width:100%;height:100%';
      const text = document.createElement('div');
      text.className = 'textLayer';
      rendering = pdfPage.render({
        canvas,
        viewport,
        transform: pixelRatio === 1 ? undefined : [pixelRatio, 0, 0, pixelRatio, 0, 0],
      });
      textLayer = new pdfjs.TextLayer({ textContentSource: pdfPage.streamTextContent(), container: text, viewport });
      await Promise.all([rendering.promise, textLayer.render()]);
      const target = sheet.current;
      if (cancelled || !target) return;
      target.style.cssText = `width:${Math.floor(viewport.width)}px;height:${Math.floor(viewport.height)}px;--total-scale-factor:${scale};--scale-round-x:1px;--scale-round-y:1px`;
      target.replaceChildren(canvas, text);
      const marks = quote ? markPassage(textLayer.textDivs, textLayer.textContentItemsStr, quote) : [];
      setDrawn({ status: 'drawn', page, marks });
    })().catch((error: unknown) => {
      if (cancelled || error instanceof pdfjs.RenderingCancelledException || error instanceof pdfjs.AbortException)
        return;
      console.warn('Drawing the page failed', error);
      setDrawn({ status: 'error' });
    });

    return () => {
      cancelled = true;
      rendering?.cancel();
      textLayer?.cancel();
    };
  }, [pdfjs, doc, page, zoom, width, quote, attempt]);

  const retry = () => {
    setDrawn({ status: 'drawing' });
    setAttempt((n) => n + 1);
  };
  return { sheet, drawn, retry };
}
