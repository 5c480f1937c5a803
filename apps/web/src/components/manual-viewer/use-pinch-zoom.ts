import { useEffect, useRef, type RefObject } from 'react';

/** Where the fingers met, on the page (for the new drawing) and on the screen (to keep it there). */
export type PinchOrigin = { onPage: { x: number; y: number }; onScreen: { x: number; y: number } };

/**
 * Two-finger zoom on `scroller`: while the fingers move, `sheet` is scaled with CSS (instant);
 * when they lift, `onPinch` gets the ratio so the page is drawn again, sharp, at its new size.
 * One finger still scrolls as usual.
 */
export function usePinchZoom(
  scroller: RefObject<HTMLElement | null>,
  sheet: RefObject<HTMLElement | null>,
  onPinch: (ratio: number, origin: PinchOrigin) => void,
) {
  const latest = useRef(onPinch);
  useEffect(() => {
    latest.current = onPinch;
  });

  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    let start: { distance: number; origin: PinchOrigin } | null = null;
    let ratio = 1;
    const distance = (touches: TouchList) =>
      Math.hypot(touches[0]!.clientX - touches[1]!.clientX, touches[0]!.clientY - touches[1]!.clientY);

    const onStart = (event: TouchEvent) => {
      const page = sheet.current;
      if (event.touches.length !== 2 || !page) return;
      const rect = page.getBoundingClientRect();
      const x = (event.touches[0]!.clientX + event.touches[1]!.clientX) / 2;
      const y = (event.touches[0]!.clientY + event.touches[1]!.clientY) / 2;
      start = {
        distance: distance(event.touches),
        origin: { onPage: { x: x - rect.left, y: y - rect.top }, onScreen: { x, y } },
      };
      ratio = 1;
      page.style.transformOrigin = `${x - rect.left}px ${y - rect.top}px`;
    };
    const onMove = (event: TouchEvent) => {
      if (!start || event.touches.length !== 2 || !sheet.current) return;
      event.preventDefault(); // the fingers zoom the page, not the whole app
      ratio = distance(event.touches) / start.distance;
      sheet.current.style.transform = `scale(${ratio})`;
    };
    const onEnd = (event: TouchEvent) => {
      if (!start || event.touches.length >= 2) return;
      const { origin } = start;
      start = null;
      latest.current(ratio, origin);
    };

    box.addEventListener('touchstart', onStart, { passive: true });
    box.addEventListener('touchmove', onMove, { passive: false });
    box.addEventListener('touchend', onEnd);
    box.addEventListener('touchcancel', onEnd);
    return () => {
      box.removeEventListener('touchstart', onStart);
      box.removeEventListener('touchmove', onMove);
      box.removeEventListener('touchend', onEnd);
      box.removeEventListener('touchcancel', onEnd);
    };
  }, [scroller, sheet]);
}
