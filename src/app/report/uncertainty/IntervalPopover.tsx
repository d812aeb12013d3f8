/**
 * The interval of the metric cell under the pointer, in a small popover. One listener on the
 * report (cells carry their text in `data-ci`), and the popover is fixed to the viewport so the
 * report's scrolling panel never clips it; its state lives here, so a hover re-renders this
 * element only, not the report's tables.
 */
import { useEffect, useState, type RefObject } from 'react';

const WIDTH = 340;

export function IntervalPopover({ container }: { container: RefObject<HTMLElement | null> }) {
  const [tip, setTip] = useState<{ text: string; left: number; top: number } | null>(null);
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let cell: Element | null = null;
    const place = () => {
      // Only while the pointer is on the cell: after a scroll it may be on another element.
      if (!cell || !cell.isConnected || !cell.matches(':hover')) return setTip(null);
      const r = cell.getBoundingClientRect();
      const below = r.bottom + 48 < window.innerHeight;
      setTip({
        text: cell.getAttribute('data-ci')!,
        left: Math.max(4, Math.min(r.right - WIDTH / 2, window.innerWidth - WIDTH - 4)),
        top: below ? r.bottom + 2 : r.top - 46,
      });
    };
    const over = (e: MouseEvent) => {
      cell = (e.target as Element | null)?.closest?.('td[data-ci]') ?? null;
      place();
    };
    const out = (e: MouseEvent) => {
      if (!el.contains(e.relatedTarget as Node | null)) {
        cell = null;
        setTip(null);
      }
    };
    // Fixed to the viewport: after a scroll (of the report's panel or the page) it follows its
    // cell, or goes when the pointer is no longer on it.
    let frame = 0;
    const scrolled = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(place);
    };
    el.addEventListener('mouseover', over);
    el.addEventListener('mouseout', out);
    document.addEventListener('scroll', scrolled, true);
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener('mouseover', over);
      el.removeEventListener('mouseout', out);
      document.removeEventListener('scroll', scrolled, true);
    };
  }, [container]);
  if (!tip) return null;
  return (
    <div className="ci-popover" role="tooltip" data-testid="ci-popover" style={{ left: tip.left, top: tip.top, maxWidth: WIDTH }}>
      {tip.text}
    </div>
  );
}
