/**
 * Pairs of shapes whose bounding boxes overlap, by a sort-and-sweep on x: O(n log n) plus one
 * cheap y test per pair that overlaps in x, so an image with thousands of instances costs what
 * its (x-)overlaps cost, not n² polygon tests. Used by the duplicate and don't-care checks,
 * which only ever compare overlapping shapes.
 */
import { ringBounds } from '../geometry/polygon';

/**
 * Calls `visit(i, j)` (i < j) once for every pair whose closed boxes overlap with positive width
 * and height. `b` holds minX, minY, maxX, maxY per item (4 numbers each).
 */
export function overlappingPairs(b: ArrayLike<number>, visit: (i: number, j: number) => void): void {
  const n = b.length >> 2;
  if (n < 2) return;
  const order = Array.from({ length: n }, (_, i) => i).sort((p, q) => b[4 * p] - b[4 * q] || p - q);
  // Active items (their maxX still reaches the sweep line), compacted as the line moves.
  let active: number[] = [];
  for (const j of order) {
    const minX = b[4 * j];
    const next: number[] = [];
    for (const i of active) {
      if (b[4 * i + 2] <= minX) continue;
      next.push(i);
      if (b[4 * i + 1] < b[4 * j + 3] && b[4 * j + 1] < b[4 * i + 3]) visit(Math.min(i, j), Math.max(i, j));
    }
    next.push(j);
    active = next;
  }
}

/** Writes the bounds of a flat ring as item `at` of a 4-per-item bounds array. */
export function boundsOfPoints(points: ArrayLike<number>, out: Float64Array, at: number): void {
  const b = ringBounds(points);
  out[4 * at] = b.minX;
  out[4 * at + 1] = b.minY;
  out[4 * at + 2] = b.maxX;
  out[4 * at + 3] = b.maxY;
}
