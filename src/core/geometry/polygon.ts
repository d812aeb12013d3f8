/**
 * Plain polygon math on flat rings `[x1, y1, x2, y2, …]` (not closed: the last point joins the
 * first). Everything here is exact-as-doubles-allow and allocation-light, because scoring a
 * benchmark calls it millions of times.
 */

/** A flat ring `[x1, y1, x2, y2, …]`: a plain array or a typed array. */
export type Ring = ArrayLike<number>;

/** Shoelace signed area: positive when the ring turns counter-clockwise in a y-up frame. */
export function signedArea(p: ArrayLike<number>, n = p.length >> 1): number {
  if (n < 3) return 0;
  let s = 0;
  let px = p[2 * n - 2];
  let py = p[2 * n - 1];
  for (let i = 0; i < n; i++) {
    const x = p[2 * i];
    const y = p[2 * i + 1];
    s += px * y - x * py;
    px = x;
    py = y;
  }
  return s / 2;
}

/** `|signedArea|`: what shapely's `Polygon(ring).area` returns, valid or not. */
export function ringArea(p: ArrayLike<number>): number {
  return Math.abs(signedArea(p));
}

export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function ringBounds(p: ArrayLike<number>): Bounds {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i + 1 < p.length; i += 2) {
    const x = p[i];
    const y = p[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** The ring with consecutive repeated points (and an explicit closing point) removed; the input itself when it has none. */
export function dedupeRing(p: Ring): Ring {
  const n = p.length >> 1;
  let clean = n === 0 || !(p[0] === p[2 * n - 2] && p[1] === p[2 * n - 1]);
  for (let i = 1; i < n && clean; i++) if (p[2 * i] === p[2 * i - 2] && p[2 * i + 1] === p[2 * i - 1]) clean = false;
  if (clean && (p.length & 1) === 0) return p;
  const out = new Float64Array(2 * n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const x = p[2 * i];
    const y = p[2 * i + 1];
    if (m > 0 && out[2 * m - 2] === x && out[2 * m - 1] === y) continue;
    out[2 * m] = x;
    out[2 * m + 1] = y;
    m++;
  }
  while (m > 1 && out[0] === out[2 * m - 2] && out[1] === out[2 * m - 1]) m--;
  return m === n ? out : out.slice(0, 2 * m);
}

/** Cross product of (b − a) × (c − a). */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** Do closed segments ab and cd share at least one point (crossing, touching or overlapping)? */
export function segmentsTouch(
  ax: number, ay: number, bx: number, by: number,
  cx: number, cy: number, dx: number, dy: number,
): boolean {
  const o1 = orient(ax, ay, bx, by, cx, cy);
  const o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay);
  const o4 = orient(cx, cy, dx, dy, bx, by);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  if (o1 === 0 && onSegment(ax, ay, bx, by, cx, cy)) return true;
  if (o2 === 0 && onSegment(ax, ay, bx, by, dx, dy)) return true;
  if (o3 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) return true;
  if (o4 === 0 && onSegment(cx, cy, dx, dy, bx, by)) return true;
  return false;
}

/**
 * Is the (deduplicated) ring a valid simple polygon in the GEOS sense: at least 3 points, no
 * edge touching a non-adjacent edge, no adjacent edges folding back on each other, area > 0.
 * An invalid ring is what shapely would `buffer(0)` before intersecting.
 */
export function isSimpleRing(r: ArrayLike<number>): boolean {
  const n = r.length >> 1;
  if (n < 3) return false;
  if (signedArea(r, n) === 0) return false;
  for (let i = 0; i < n; i++) {
    const i1 = (i + 1) % n;
    const i2 = (i + 2) % n;
    // Adjacent edges i and i+1 share point i1; they overlap when they are collinear and fold back.
    const ax = r[2 * i], ay = r[2 * i + 1], bx = r[2 * i1], by = r[2 * i1 + 1], cx = r[2 * i2], cy = r[2 * i2 + 1];
    if (orient(ax, ay, bx, by, cx, cy) === 0 && (bx - ax) * (cx - bx) + (by - ay) * (cy - by) < 0) return false;
  }
  if (n === 3) return true;
  for (let i = 0; i < n; i++) {
    const i1 = (i + 1) % n;
    const ax = r[2 * i], ay = r[2 * i + 1], bx = r[2 * i1], by = r[2 * i1 + 1];
    const eMinX = Math.min(ax, bx), eMaxX = Math.max(ax, bx), eMinY = Math.min(ay, by), eMaxY = Math.max(ay, by);
    // Non-adjacent edges j > i + 1 (and not the edge before i when i == 0).
    const last = i === 0 ? n - 1 : n;
    for (let j = i + 2; j < last; j++) {
      const j1 = (j + 1) % n;
      const cx = r[2 * j], cy = r[2 * j + 1], dx = r[2 * j1], dy = r[2 * j1 + 1];
      if (Math.max(cx, dx) < eMinX || Math.min(cx, dx) > eMaxX || Math.max(cy, dy) < eMinY || Math.min(cy, dy) > eMaxY) continue;
      if (segmentsTouch(ax, ay, bx, by, cx, cy, dx, dy)) return false;
    }
  }
  return true;
}

/**
 * A quick sufficient test for "simple and convex" (Graphics Gems IV, Schorn & Fisher): every turn
 * the same way, no edge folding back, the edge directions changing sign at most twice in x and
 * twice in y (which rules out a star that winds twice), and a non-zero area. Most text boxes pass
 * it and skip the O(n²) self-intersection test.
 */
export function isConvexSimpleRing(r: Ring): boolean {
  const n = r.length >> 1;
  if (n < 3) return false;
  let turn = 0;
  let xFlips = 0;
  let yFlips = 0;
  let lastDx = 0;
  let lastDy = 0;
  let area = 0;
  let px = r[2 * n - 2], py = r[2 * n - 1];
  let pdx = px - r[2 * n - 4], pdy = py - r[2 * n - 3];
  for (let i = 0; i < n; i++) {
    const x = r[2 * i], y = r[2 * i + 1];
    const dx = x - px, dy = y - py;
    const cross = pdx * dy - pdy * dx;
    if (cross !== 0) {
      const s = cross > 0 ? 1 : -1;
      if (turn === 0) turn = s;
      else if (s !== turn) return false;
    } else if (pdx * dx + pdy * dy < 0) {
      return false; // folds back on itself
    }
    if (dx !== 0) {
      if (lastDx !== 0 && (dx > 0) !== (lastDx > 0)) xFlips++;
      lastDx = dx;
    }
    if (dy !== 0) {
      if (lastDy !== 0 && (dy > 0) !== (lastDy > 0)) yFlips++;
      lastDy = dy;
    }
    area += px * y - x * py;
    px = x;
    py = y;
    pdx = dx;
    pdy = dy;
  }
  // Flips are counted along the ring once; the cyclic count is even, so "≤ 2 here" means "≤ 2".
  return turn !== 0 && area !== 0 && xFlips <= 2 && yFlips <= 2;
}

/** The same ring turning counter-clockwise (a copy when it had to be reversed). */
export function counterClockwise(r: Ring): Ring {
  if (signedArea(r) >= 0) return r;
  const n = r.length >> 1;
  const out = new Array<number>(r.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = r[2 * (n - 1 - i)];
    out[2 * i + 1] = r[2 * (n - 1 - i) + 1];
  }
  return out;
}

/** Convex hull (Andrew's monotone chain), counter-clockwise, without collinear points. */
export function convexHull(points: ArrayLike<number>): Float64Array {
  const n = points.length >> 1;
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => points[2 * a] - points[2 * b] || points[2 * a + 1] - points[2 * b + 1]);
  const hull: number[] = [];
  const cross = (o: number, a: number, b: number) =>
    orient(points[2 * o], points[2 * o + 1], points[2 * a], points[2 * a + 1], points[2 * b], points[2 * b + 1]);
  for (const i of idx) {
    while (hull.length >= 2 && cross(hull[hull.length - 2], hull[hull.length - 1], i) <= 0) hull.pop();
    hull.push(i);
  }
  const lower = hull.length + 1;
  for (let k = idx.length - 2; k >= 0; k--) {
    const i = idx[k];
    while (hull.length >= lower && cross(hull[hull.length - 2], hull[hull.length - 1], i) <= 0) hull.pop();
    hull.push(i);
  }
  hull.pop();
  const out = new Float64Array(hull.length * 2);
  hull.forEach((i, k) => {
    out[2 * k] = points[2 * i];
    out[2 * k + 1] = points[2 * i + 1];
  });
  return out;
}

// Scratch buffers for the half-plane clipper: grown on demand, never shrunk.
let bufA = new Float64Array(256);
let bufB = new Float64Array(256);

/**
 * Area of `subject ∩ clip` where `clip` is convex and counter-clockwise and `subject` is any
 * simple counter-clockwise ring (convex or not), by Sutherland–Hodgman: clip the subject by every
 * edge of `clip`. For a non-convex subject the output may run back and forth along a clip edge,
 * but those runs enclose no area: the winding number of the output equals the subject's inside
 * each half-plane and 0 outside, so its shoelace area is exactly the intersection area.
 * `clipOff` / `clipLen` select a sub-ring of a flat array (the triangles of a decomposition).
 */
export function clipArea(subject: Ring, clip: Ring, clipOff = 0, clipLen = clip.length): number {
  const na = subject.length >> 1;
  const nb = clipLen >> 1;
  let src = bufA;
  let dst = bufB;
  if (src.length < 4 * na + 8) {
    bufA = src = new Float64Array(8 * na + 16);
    bufB = dst = new Float64Array(8 * na + 16);
  }
  for (let i = 0; i < subject.length; i++) src[i] = subject[i];
  let n = na;
  for (let e = 0; e < nb && n > 0; e++) {
    // Each half-plane can at most double the vertex count (one crossing per edge).
    if (dst.length < 4 * n + 8) {
      const bigger = new Float64Array(8 * n + 16);
      bigger.set(src.subarray(0, 2 * n));
      src = bigger;
      dst = new Float64Array(8 * n + 16);
    }
    const ex = clip[clipOff + 2 * e];
    const ey = clip[clipOff + 2 * e + 1];
    const e1 = e + 1 === nb ? 0 : e + 1;
    const dx = clip[clipOff + 2 * e1] - ex;
    const dy = clip[clipOff + 2 * e1 + 1] - ey;
    let m = 0;
    let px = src[2 * n - 2];
    let py = src[2 * n - 1];
    let pSide = dx * (py - ey) - dy * (px - ex);
    for (let i = 0; i < n; i++) {
      const qx = src[2 * i];
      const qy = src[2 * i + 1];
      const qSide = dx * (qy - ey) - dy * (qx - ex);
      if (qSide >= 0) {
        if (pSide < 0) {
          const t = pSide / (pSide - qSide);
          // On an axis-parallel clip edge the crossing's coordinate is the edge's own, exactly
          // (GEOS gets it exactly too); interpolating could be an ulp off and tip IoU = 0.5 over.
          dst[2 * m] = dx === 0 ? ex : px + t * (qx - px);
          dst[2 * m + 1] = dy === 0 ? ey : py + t * (qy - py);
          m++;
        }
        dst[2 * m] = qx;
        dst[2 * m + 1] = qy;
        m++;
      } else if (pSide > 0) {
        // Leaving the half-plane: emit the crossing (a point exactly on the edge was emitted already).
        const t = pSide / (pSide - qSide);
        dst[2 * m] = dx === 0 ? ex : px + t * (qx - px);
        dst[2 * m + 1] = dy === 0 ? ey : py + t * (qy - py);
        m++;
      }
      px = qx;
      py = qy;
      pSide = qSide;
    }
    const t = src;
    src = dst;
    dst = t;
    n = m;
  }
  if (src.length > bufA.length) {
    bufA = src;
    bufB = dst;
  }
  if (n < 3) return 0;
  return Math.max(0, signedArea(src, n));
}

/**
 * Ear-clipping triangulation of a simple ring (no holes): counter-clockwise triangles as one flat
 * array of 6-number groups, collinear vertices dropped. Null when no ear can be found (a
 * degenerate ring the caller then hands to the general clipper).
 */
export function triangulate(ring: Ring): Float64Array | null {
  const n0 = ring.length >> 1;
  if (n0 < 3) return null;
  const ccw = signedArea(ring) >= 0;
  const xs = new Float64Array(n0);
  const ys = new Float64Array(n0);
  for (let i = 0; i < n0; i++) {
    const j = ccw ? i : n0 - 1 - i;
    xs[i] = ring[2 * j];
    ys[i] = ring[2 * j + 1];
  }
  const prev = new Int32Array(n0);
  const next = new Int32Array(n0);
  for (let i = 0; i < n0; i++) {
    prev[i] = (i + n0 - 1) % n0;
    next[i] = (i + 1) % n0;
  }
  const out = new Float64Array(6 * (n0 - 2));
  let m = 0;
  let left = n0;
  let b = 0;
  let stall = 0;
  while (left > 3) {
    const a = prev[b];
    const c = next[b];
    const o = orient(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]);
    let cut = false;
    if (o === 0) {
      cut = true; // b lies on the segment ac (a fold-back would have made the ring invalid)
    } else if (o > 0) {
      // An ear when no other remaining vertex lies inside or on the triangle (boundary included,
      // so a vertex touching the new diagonal blocks it too).
      cut = true;
      const x0 = Math.min(xs[a], xs[b], xs[c]), x1 = Math.max(xs[a], xs[b], xs[c]);
      const y0 = Math.min(ys[a], ys[b], ys[c]), y1 = Math.max(ys[a], ys[b], ys[c]);
      for (let v = next[c]; v !== a; v = next[v]) {
        const px = xs[v], py = ys[v];
        if (px < x0 || px > x1 || py < y0 || py > y1) continue;
        if (
          orient(xs[a], ys[a], xs[b], ys[b], px, py) >= 0 &&
          orient(xs[b], ys[b], xs[c], ys[c], px, py) >= 0 &&
          orient(xs[c], ys[c], xs[a], ys[a], px, py) >= 0
        ) {
          cut = false;
          break;
        }
      }
      if (cut) {
        out[m++] = xs[a]; out[m++] = ys[a];
        out[m++] = xs[b]; out[m++] = ys[b];
        out[m++] = xs[c]; out[m++] = ys[c];
      }
    }
    if (cut) {
      next[a] = c;
      prev[c] = a;
      left--;
      stall = 0;
      b = a; // the neighbours may have become ears
    } else {
      b = c;
      if (++stall > left) return null;
    }
  }
  const a = prev[b];
  const c = next[b];
  if (orient(xs[a], ys[a], xs[b], ys[b], xs[c], ys[c]) > 0) {
    out[m++] = xs[a]; out[m++] = ys[a];
    out[m++] = xs[b]; out[m++] = ys[b];
    out[m++] = xs[c]; out[m++] = ys[c];
  }
  return m === out.length ? out : out.slice(0, m);
}
