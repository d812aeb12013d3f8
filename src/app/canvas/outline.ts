/**
 * A polygon's solid outline as a filled band instead of a canvas stroke: the polygon offset by
 * half the line width to either side, two contours of one path filled with the 'nonzero' rule.
 *
 * Why: in software-rasterised Chromium, stroking was most of a full-detail redraw — Skia turns
 * each stroke into an outline path (with its joins) before filling it, and its fill cost grows
 * with the number of edges. Measured on the viewer bench's 5,000 polygons at its final view, in
 * one worker: 70 ms with strokes, 50 ms with the solid ones (3,900) as bands (dashed outlines
 * stay strokes: rectangles per dash measured no faster than Skia's dashing). The look is a
 * stroke's with miter joins (bevels beyond the canvas's default miter limit).
 */

/** The path calls used (a canvas 2D context, or a recorder in tests). */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  closePath(): void;
}

/** As a canvas's default `miterLimit`: longer miters become bevels. */
export const MITER_LIMIT = 10;

// Per-polygon scratch: the polygon without repeated points and its edges' unit directions.
let xs = new Float64Array(64);
let ys = new Float64Array(64);
let dx = new Float64Array(64);
let dy = new Float64Array(64);

function ensure(n: number) {
  if (xs.length >= n) return;
  const m = Math.max(n, xs.length * 2);
  xs = new Float64Array(m);
  ys = new Float64Array(m);
  dx = new Float64Array(m);
  dy = new Float64Array(m);
}

/** Loads the scratch arrays with `pts` without repeated points; returns how many are left. */
function prepare(pts: ArrayLike<number>): number {
  const np = pts.length >> 1;
  ensure(np + 1);
  // Drop repeated points (an edge of length zero has no direction), including a closing repeat.
  let n = 0;
  for (let i = 0; i < np; i++) {
    const x = pts[2 * i];
    const y = pts[2 * i + 1];
    if (n > 0 && x === xs[n - 1] && y === ys[n - 1]) continue;
    xs[n] = x;
    ys[n] = y;
    n++;
  }
  while (n > 1 && xs[n - 1] === xs[0] && ys[n - 1] === ys[0]) n--;
  for (let i = 0; i < n && n > 1; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const ex = xs[j] - xs[i];
    const ey = ys[j] - ys[i];
    const l = Math.sqrt(ex * ex + ey * ey);
    dx[i] = ex / l;
    dy[i] = ey / l;
  }
  return n;
}

/**
 * Adds a solid outline of the closed polygon `pts` as two contours, the polygon offset by `hw`
 * to either side (the second traced backwards): under 'nonzero' the band between them is
 * filled. Cheaper to rasterise than rectangles per edge (Skia's cost goes with the number of
 * edges: 2 per polygon edge here, 8 there). Where a polygon is thinner than the line, the inner
 * contour turns over and the band covers it, as a stroke would.
 */
export function traceRing(out: PathSink, pts: ArrayLike<number>, hw: number): void {
  const n = prepare(pts);
  if (n < 2 || !(hw > 0)) return;
  side(out, n, hw, 1);
  side(out, n, hw, -1);
}

/** One contour of traceRing: every corner offset by `hw` to side `s` (+1 left, -1 right). */
function side(out: PathSink, n: number, hw: number, s: 1 | -1) {
  let first = true;
  const to = (x: number, y: number) => {
    if (first) out.moveTo(x, y);
    else out.lineTo(x, y);
    first = false;
  };
  for (let c = 0; c < n; c++) {
    // The left contour goes forwards, the right one backwards (opposite orientations).
    const j = s === 1 ? c : n - 1 - c;
    const i = j === 0 ? n - 1 : j - 1; // the edge into corner j; edge j leaves it
    const vx = xs[j];
    const vy = ys[j];
    const n1x = -dy[i] * s;
    const n1y = dx[i] * s;
    const n2x = -dy[j] * s;
    const n2y = dx[j] * s;
    const cc = 1 + n1x * n2x + n1y * n2y;
    const mx = (n1x + n2x) / cc;
    const my = (n1y + n2y) / cc;
    if (cc > 1e-9 && mx * mx + my * my <= MITER_LIMIT * MITER_LIMIT) {
      to(vx + mx * hw, vy + my * hw);
    } else if (s === 1) {
      // Beyond the miter limit: a bevel, the ends of both edges' sides, in the contour's order.
      to(vx + n1x * hw, vy + n1y * hw);
      to(vx + n2x * hw, vy + n2y * hw);
    } else {
      to(vx + n2x * hw, vy + n2y * hw);
      to(vx + n1x * hw, vy + n1y * hw);
    }
  }
  out.closePath();
}
