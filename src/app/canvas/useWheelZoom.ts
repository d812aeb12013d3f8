/** Wheel zoom at the cursor for a canvas pane (or the GT editor laid over it). */
import { useEffect, type RefObject } from 'react';
import { wheelFactor, zoomAt, type ViewTransform } from './transform';

export function useWheelZoom(
  box: RefObject<HTMLElement | null>,
  updateTransform: (fn: (t: ViewTransform) => ViewTransform, deferred?: boolean) => void,
): void {
  // A non-passive listener: React's onWheel is passive, and the page must not scroll instead.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const f = wheelFactor(e.deltaY, e.deltaMode);
      // Deferred: several wheel events may arrive in one frame; the panes redraw once for them.
      updateTransform((t) => zoomAt(t, e.clientX - r.left, e.clientY - r.top, f), true);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [box, updateTransform]);
}
