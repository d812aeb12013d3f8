/**
 * Shapes as flat point lists for drawing and hit-testing. A box becomes its 4 corners; a polygon
 * keeps every vertex (quads and curved text polygons are never flattened to boxes).
 */
import type { Shape } from '../../core/model';

export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The outline of a shape as [x1, y1, x2, y2, …]; an empty list when there is no usable geometry. */
export function shapePoints(shape: Shape | undefined): number[] {
  if (!shape) return [];
  if (shape.type === 'box') {
    const [a, b, c, d] = shape.box;
    if (![a, b, c, d].every(Number.isFinite)) return [];
    const x0 = Math.min(a, c);
    const x1 = Math.max(a, c);
    const y0 = Math.min(b, d);
    const y1 = Math.max(b, d);
    return [x0, y0, x1, y0, x1, y1, x0, y1];
  }
  const pts = shape.points;
  const n = pts.length - (pts.length % 2);
  if (n < 4) return [];
  const out = pts.slice(0, n);
  return out.every(Number.isFinite) ? out : [];
}

export function boundsOf(points: readonly number[]): Rect | null {
  if (points.length < 2) return null;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i];
    const y = points[i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x0, y0, x1, y1 };
}

/** Absolute shoelace area (0 for a degenerate outline). */
export function polygonArea(points: readonly number[]): number {
  const n = points.length >> 1;
  if (n < 3) return 0;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += points[2 * j] * points[2 * i + 1] - points[2 * i] * points[2 * j + 1];
  return Math.abs(s) / 2;
}

/** Even-odd ray casting; works for concave and self-touching text polygons. */
export function pointInPolygon(px: number, py: number, points: readonly number[]): boolean {
  const n = points.length >> 1;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = points[2 * i];
    const yi = points[2 * i + 1];
    const xj = points[2 * j];
    const yj = points[2 * j + 1];
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance from a point to the closed outline (used so thin shapes stay easy to hover). */
export function distanceToOutline(px: number, py: number, points: readonly number[]): number {
  const n = points.length >> 1;
  let best = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const ax = points[2 * j];
    const ay = points[2 * j + 1];
    const bx = points[2 * i];
    const by = points[2 * i + 1];
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const d = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
    if (d < best) best = d;
  }
  return best;
}
