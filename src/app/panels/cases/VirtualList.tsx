/**
 * A windowed list with a fixed row height: only the rows in view (plus a few either side) are in
 * the DOM, so 25,000 cases scroll like 25. Scroll events are folded into one state update per
 * animation frame. Written here rather than pulled in as a package: it is 80 lines.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { visibleRange } from './visibleRange';

export interface VirtualListProps {
  /** Number of rows (for the grid: rows of tiles). */
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ReactNode;
  /** A stable key for row `index` (so row components are not reused for another case). */
  rowKey?: (index: number) => string | number;
  /** Changing it (e.g. a new filtered row array) scrolls back to the top. */
  resetKey?: unknown;
  /** When set, the list scrolls just enough to show this row. */
  ensureVisible?: number | null;
  overscan?: number;
  className?: string;
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** Reports the viewport's inner width (the grid derives its column count from it). */
  onWidth?: (width: number) => void;
  label?: string;
  testId?: string;
}

export function VirtualList({ count, rowHeight, renderRow, rowKey, resetKey, ensureVisible = null, overscan = 6, className, onKeyDown, onWidth, label, testId }: VirtualListProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  const frame = useRef(0);

  // Sized by the ResizeObserver alone: its first callback comes after the browser's own layout,
  // before the first paint. Reading clientHeight here instead would force a layout of the whole
  // page inside the task that mounts the list (issue 6: ~100 ms at 20,000 cases).
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (entries: ResizeObserverEntry[]) => {
      const box = entries[entries.length - 1].contentRect;
      setHeight(box.height);
      onWidth?.(box.width);
    };
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [onWidth]);

  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  // A new list (filters changed) starts at the top; then the wanted row is brought into view
  // (keyboard navigation, a case restored from the URL, a selection that survived the filter).
  // Works from the known scroll position and height rather than reading the DOM: a read of
  // scrollTop / clientHeight right after mounting forces a layout of the whole page in this task.
  const lastReset = useRef(resetKey);
  const pos = useRef(0);
  pos.current = scrollTop;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let next = pos.current;
    if (lastReset.current !== resetKey) {
      lastReset.current = resetKey;
      next = 0;
    }
    if (ensureVisible !== null && ensureVisible >= 0) {
      const top = ensureVisible * rowHeight;
      if (top < next) next = top;
      else if (top + rowHeight > next + height) next = Math.max(0, top + rowHeight - height);
    }
    if (next !== pos.current) {
      el.scrollTop = next;
      setScrollTop(el.scrollTop);
    }
  }, [resetKey, ensureVisible, rowHeight, height]);

  const [first, last] = visibleRange(scrollTop, height, rowHeight, count, overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={rowKey ? rowKey(i) : i} className="cb-vrow" style={{ top: i * rowHeight, height: rowHeight }}>
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      className={`cb-viewport ${className ?? ''}`}
      tabIndex={0}
      role="listbox"
      aria-label={label}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onScroll={(e) => {
        const el = e.currentTarget;
        cancelAnimationFrame(frame.current);
        frame.current = requestAnimationFrame(() => {
          pos.current = el.scrollTop;
          setScrollTop(pos.current);
        });
      }}
    >
      <div className="cb-spacer" style={{ height: count * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
