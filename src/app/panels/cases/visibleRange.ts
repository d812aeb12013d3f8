/**
 * Which rows of a fixed-height list are in the DOM: those in the viewport plus `overscan` either
 * side. Returns [first, end) row indices. A scroll position past the end (the list just got
 * shorter) is clamped, so a filter never leaves an empty window.
 */
export function visibleRange(scrollTop: number, height: number, rowHeight: number, count: number, overscan: number): [number, number] {
  if (count <= 0 || rowHeight <= 0) return [0, 0];
  const maxTop = Math.max(0, count * rowHeight - height);
  const top = Math.min(Math.max(0, scrollTop), maxTop);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((top + Math.max(0, height)) / rowHeight) + overscan);
  return [first, end];
}
