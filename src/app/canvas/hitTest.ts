/**
 * Which shape is under the pointer, by pure geometry (no canvas hit graph): a uniform grid over
 * the shapes' bounding boxes narrows 5,000 polygons to a handful, then point-in-polygon decides.
 * Konva's own hit canvas would double the draw cost of the static layer on every frame.
 */
import { distanceToOutline, pointInPolygon, type Rect } from './geometry';

export interface HitShape {
  points: readonly number[];
  bounds: Rect;
  area: number;
}

export class SpatialIndex<T extends HitShape> {
  private readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly ox: number;
  private readonly oy: number;
  private readonly grid: Map<number, number[]> = new Map();

  constructor(readonly shapes: readonly T[], cellsPerSide = 64) {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const s of shapes) {
      x0 = Math.min(x0, s.bounds.x0);
      y0 = Math.min(y0, s.bounds.y0);
      x1 = Math.max(x1, s.bounds.x1);
      y1 = Math.max(y1, s.bounds.y1);
    }
    if (!Number.isFinite(x0)) {
      x0 = y0 = 0;
      x1 = y1 = 1;
    }
    this.ox = x0;
    this.oy = y0;
    this.cell = Math.max(1, Math.max(x1 - x0, y1 - y0) / cellsPerSide);
    this.cols = Math.floor((x1 - x0) / this.cell) + 1;
    this.rows = Math.floor((y1 - y0) / this.cell) + 1;
    shapes.forEach((s, i) => {
      const [c0, r0] = this.cellOf(s.bounds.x0, s.bounds.y0);
      const [c1, r1] = this.cellOf(s.bounds.x1, s.bounds.y1);
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++) {
          const k = r * this.cols + c;
          const list = this.grid.get(k);
          if (list) list.push(i);
          else this.grid.set(k, [i]);
        }
    });
  }

  private cellOf(x: number, y: number): [number, number] {
    const c = Math.min(this.cols - 1, Math.max(0, Math.floor((x - this.ox) / this.cell)));
    const r = Math.min(this.rows - 1, Math.max(0, Math.floor((y - this.oy) / this.cell)));
    return [c, r];
  }

  /** Indices of shapes whose bounds come within `tol` of the point (candidates only). */
  candidates(x: number, y: number, tol = 0): number[] {
    const [c0, r0] = this.cellOf(x - tol, y - tol);
    const [c1, r1] = this.cellOf(x + tol, y + tol);
    const seen = new Set<number>();
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++) for (const i of this.grid.get(r * this.cols + c) ?? []) seen.add(i);
    const out: number[] = [];
    for (const i of seen) {
      const b = this.shapes[i].bounds;
      if (x >= b.x0 - tol && x <= b.x1 + tol && y >= b.y0 - tol && y <= b.y1 + tol) out.push(i);
    }
    return out;
  }

  /**
   * The shape under (x, y): a shape is hit when it contains the point or its outline is within
   * `tol` (thin shapes stay easy to hover); among hits the smallest area wins, so a word inside a
   * don't-care region is what the user points at, not the region. `accept` skips hidden layers.
   * Returns the index into `shapes`, or -1.
   */
  hit(x: number, y: number, tol = 0, accept?: (s: T, i: number) => boolean): number {
    let best = -1;
    let bestArea = Infinity;
    for (const i of this.candidates(x, y, tol)) {
      const s = this.shapes[i];
      if (accept && !accept(s, i)) continue;
      const isHit = pointInPolygon(x, y, s.points) || (tol > 0 && distanceToOutline(x, y, s.points) <= tol);
      // Equal areas: the later shape is drawn on top, so it wins.
      if (isHit && (s.area < bestArea || (s.area === bestArea && i > best))) {
        best = i;
        bestArea = s.area;
      }
    }
    return best;
  }
}
