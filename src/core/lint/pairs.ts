/**
 * Pairs of shapes whose bounding boxes overlap, by a sort-and-sweep on x: O(n log n + k) for k
 * overlapping pairs, so an image with thousands of instances costs what its overlaps cost, not
 * n². Used by the duplicate and don't-care checks, which only ever compare overlapping shapes.
 */

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

export function boundsOfPoints(points: ArrayLike<number>, out: Float64Array, at: number): void {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i], y = points[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  out[4 * at] = minX;
  out[4 * at + 1] = minY;
  out[4 * at + 2] = maxX;
  out[4 * at + 3] = maxY;
}
