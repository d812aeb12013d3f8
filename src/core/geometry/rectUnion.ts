/**
 * Area of a union of axis-aligned rectangles by a sweep line over y with a segment tree over the
 * distinct x edges: O(n log n) time, O(n) memory. Used for the error taxonomy's `split` rule on
 * box benchmarks, where Clipper2's general polygon union grew quadratically with the number of
 * overlapping boxes (300,000 boxes on one gansulishuzhi page did not finish in 2 minutes).
 *
 * `boxUnionIoU` gives what `unionIoU(boxRegion(target), parts.map(boxRegion))` gives: the same
 * integer grid (gridFor), so the rounded geometry is the one Clipper2 would have unioned; on that
 * grid both areas are sums of integer products, exact for pixel-sized pages.
 */
import { boxRegion, gridFor } from './polygonRegion';

/** Work done by the sweeps so far (segment-tree node visits), for the tests that bound it. */
export const rectUnionStats = { visits: 0 };

// The segment tree, module-level so that a sweep allocates nothing per update.
let cnt = new Int32Array(0);
let len = new Float64Array(0);
let xs = new Float64Array(0);
let leaves = 0;

function update(node: number, lo: number, hi: number, a: number, b: number, d: number): void {
  rectUnionStats.visits++;
  if (a <= lo && hi <= b) cnt[node] += d;
  else {
    const mid = (lo + hi) >> 1;
    if (a < mid) update(2 * node, lo, mid, a, b, d);
    if (b > mid) update(2 * node + 1, mid, hi, a, b, d);
  }
  if (cnt[node] > 0) len[node] = xs[Math.min(hi, leaves)] - xs[Math.min(lo, leaves)];
  else if (hi - lo === 1) len[node] = 0;
  else len[node] = len[2 * node] + len[2 * node + 1];
}

/**
 * Area of the union of `n` rectangles given flat as x1, y1, x2, y2 (x2 > x1, y2 > y1; others
 * add nothing).
 */
export function rectUnionArea(flat: ArrayLike<number>, n: number): number {
  // Distinct x edges, sorted: the tree's leaves are the gaps between neighbours.
  const xsAll = new Float64Array(2 * n);
  let m = 0;
  let maxY = 0;
  let integral = true;
  for (let i = 0; i < n; i++) {
    const x1 = flat[4 * i], y1 = flat[4 * i + 1], x2 = flat[4 * i + 2], y2 = flat[4 * i + 3];
    if (!(x2 > x1 && y2 > y1)) continue;
    xsAll[m++] = x1;
    xsAll[m++] = x2;
    if (!(Number.isInteger(y1) && Number.isInteger(y2) && y1 >= 0)) integral = false;
    else if (y2 > maxY) maxY = y2;
  }
  if (m === 0) return 0;
  const sorted = xsAll.subarray(0, m).sort();
  let k = 0;
  for (let i = 0; i < m; i++) if (i === 0 || sorted[i] !== sorted[k - 1]) sorted[k++] = sorted[i];
  xs = sorted.subarray(0, k);
  leaves = k - 1;
  if (leaves <= 0) return 0;

  // Events: a rectangle opens at y1 and closes at y2, taken in y order (the order within one y
  // is free: no area accrues between events at the same y).
  const nev = m; // one open and one close per live rectangle
  const ey = new Float64Array(nev);
  const ea = new Int32Array(nev);
  const eb = new Int32Array(nev);
  const ed = new Int8Array(nev);
  let e = 0;
  for (let i = 0; i < n; i++) {
    const x1 = flat[4 * i], y1 = flat[4 * i + 1], x2 = flat[4 * i + 2], y2 = flat[4 * i + 3];
    if (!(x2 > x1 && y2 > y1)) continue;
    const a = lowerBound(xs, x1);
    const b = lowerBound(xs, x2);
    ey[e] = y1; ea[e] = a; eb[e] = b; ed[e++] = 1;
    ey[e] = y2; ea[e] = a; eb[e] = b; ed[e++] = -1;
  }
  const order = eventOrder(ey, nev, integral && (maxY + 1) * nev < 2 ** 52 ? nev : 0);

  let size = 1;
  while (size < leaves) size <<= 1;
  if (cnt.length < 2 * size) {
    cnt = new Int32Array(2 * size);
    len = new Float64Array(2 * size);
  } else {
    cnt.fill(0, 0, 2 * size);
    len.fill(0, 0, 2 * size);
  }
  let area = 0;
  let prevY = ey[order[0]];
  for (let i = 0; i < nev; i++) {
    const ev = order[i];
    const y = ey[ev];
    area += len[1] * (y - prevY);
    prevY = y;
    update(1, 0, size, ea[ev], eb[ev], ed[ev]);
  }
  return area;
}

/**
 * Event indices in y order. With non-negative integer y (grid coordinates) and `pack` = the
 * event count, y·pack + index is an exact double and a plain numeric sort of those keys orders
 * the events (several times faster than a comparator sort); otherwise a comparator sort.
 */
function eventOrder(ey: Float64Array, nev: number, pack: number): ArrayLike<number> {
  if (pack > 0) {
    const keys = new Float64Array(nev);
    for (let i = 0; i < nev; i++) keys[i] = ey[i] * pack + i;
    keys.sort();
    const order = new Uint32Array(nev);
    for (let i = 0; i < nev; i++) order[i] = keys[i] - Math.floor(keys[i] / pack) * pack;
    return order;
  }
  const order = new Uint32Array(nev);
  for (let i = 0; i < nev; i++) order[i] = i;
  return order.sort((i, j) => ey[i] - ey[j]);
}

function lowerBound(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * IoU of the union of boxes `parts` ([x1, y1, x2, y2] each) with box `target`, as `unionIoU`
 * computes it for their regions: 0 when either side is empty.
 */
export function boxUnionIoU(target: readonly number[], parts: readonly (readonly number[])[]): number {
  const t = boxRegion(target);
  if (t.rings.length === 0) return 0;
  let minX = t.minX, minY = t.minY, maxX = t.maxX, maxY = t.maxY;
  let live = 0;
  for (const p of parts) {
    if (!(p[2] > p[0] && p[3] > p[1])) continue; // an empty region, as boxRegion makes it
    live++;
    if (p[0] < minX) minX = p[0];
    if (p[1] < minY) minY = p[1];
    if (p[2] > maxX) maxX = p[2];
    if (p[3] > maxY) maxY = p[3];
  }
  if (live === 0) return 0;
  const g = gridFor({ minX, minY, maxX, maxY });
  const gx = (x: number) => Math.round((x - g.ox) * g.s);
  const gy = (y: number) => Math.round((y - g.oy) * g.s);
  const tx1 = gx(t.minX), ty1 = gy(t.minY), tx2 = gx(t.maxX), ty2 = gy(t.maxY);
  const all = new Float64Array(4 * live);
  const clipped = new Float64Array(4 * live);
  let i = 0;
  for (const p of parts) {
    if (!(p[2] > p[0] && p[3] > p[1])) continue;
    const x1 = gx(p[0]), y1 = gy(p[1]), x2 = gx(p[2]), y2 = gy(p[3]);
    all[4 * i] = x1; all[4 * i + 1] = y1; all[4 * i + 2] = x2; all[4 * i + 3] = y2;
    clipped[4 * i] = Math.max(x1, tx1);
    clipped[4 * i + 1] = Math.max(y1, ty1);
    clipped[4 * i + 2] = Math.min(x2, tx2);
    clipped[4 * i + 3] = Math.min(y2, ty2);
    i++;
  }
  const s2 = g.s * g.s;
  const uArea = rectUnionArea(all, live) / s2;
  // Parts wholly inside the target (the usual split) clip to themselves: one sweep serves both.
  let inside = true;
  for (let j = 0; j < 4 * live && inside; j++) if (clipped[j] !== all[j]) inside = false;
  const inter = inside ? uArea : rectUnionArea(clipped, live) / s2;
  const union = uArea + t.area - inter;
  return union > 0 ? inter / union : 0;
}
