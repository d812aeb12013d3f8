/** The content size of an element, kept current with a ResizeObserver. */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export function useElementSize<T extends HTMLElement>(): [{ width: number; height: number }, RefObject<T | null>] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const r = el.getBoundingClientRect();
      setSize((s) => (Math.round(r.width) === s.width && Math.round(r.height) === s.height ? s : { width: Math.round(r.width), height: Math.round(r.height) }));
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [size, ref];
}
