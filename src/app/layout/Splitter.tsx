/**
 * A vertical splitter between two panes: drag it, or focus it (Tab) and use ← / → (Shift for
 * bigger steps), Home / End for the limits. It only reports the new size; the parent owns it.
 * ARIA "window splitter" pattern: role=separator with aria-valuenow / min / max.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface SplitterProps {
  /** The size (px) of the pane the splitter resizes. */
  value: number;
  min: number;
  max: number;
  onChange(px: number): void;
  /** +1: dragging right grows the pane (it is on the left); -1: the pane is on the right. */
  direction: 1 | -1;
  label: string;
  testId?: string;
}

export const SPLITTER_STEP = 16;

export function Splitter({ value, min, max, onChange, direction, label, testId }: SplitterProps) {
  const drag = useRef<{ x: number; start: number } | null>(null);
  const clamp = (v: number) => Math.round(Math.min(max, Math.max(min, v)));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? SPLITTER_STEP * 4 : SPLITTER_STEP;
    let next: number | null = null;
    if (e.key === 'ArrowRight') next = value + direction * step;
    else if (e.key === 'ArrowLeft') next = value - direction * step;
    else if (e.key === 'Home') next = min;
    else if (e.key === 'End') next = max;
    if (next === null) return;
    // The viewer's own keys (← / → = previous / next case) must not also fire.
    e.preventDefault();
    e.stopPropagation();
    onChange(clamp(next));
  };
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onPointerDown={(e: PointerEvent<HTMLDivElement>) => {
        if (e.button !== 0) return;
        drag.current = { x: e.clientX, start: value };
        e.currentTarget.setPointerCapture?.(e.pointerId);
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        if (d) onChange(clamp(d.start + direction * (e.clientX - d.x)));
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
    />
  );
}
