/** Wheel zoom at the cursor for a canvas pane (or the GT editor laid over it). */
import { useEffect, type RefObject } from 'react';
import { wheelFactor, zoomAt, type ViewTransform } from './transform';

export function useWheelZoom(
  box: RefObject<HTMLElement | null>,
  updateTransform: (fn: (t: ViewTransform) => ViewTransform) => void,
): void {
  // A non-passive listener: React's onWheel is passive, and the page must not scroll instead.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const f = wheelFactor(e.deltaY, e.deltaMode);
      updateTransform((t) => zoomAt(t, e.clientX - r.left, e.clientY - r.top, f));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [box, updateTransform]);
}
