/**
 * Polygon regions as the official text-detection evaluators see them (shapely / GEOS): a valid
 * ring is used as drawn; an invalid one (self-intersecting, a bow-tie, folded back) is first
 * repaired the way shapely's `buffer(0)` does it.
 *
 * Intersection areas are computed three ways, fastest first:
 *  - a simple ring and a convex one: one Sutherland–Hodgman clip of the simple ring by the convex
 *    one, exact up to double rounding;
 *  - two simple non-convex rings: one of them split into triangles (once per region), then the
 *    sum of the clips of the other by each overlapping triangle — the triangles tile the polygon,
 *    so the sum is the intersection area; also in doubles, no grid;
 *  - anything else (repaired multi-pieces, holes, rings that resist triangulation): Clipper2 on
 *    an integer grid fitted to the pair, so rounding stays far below 1e-6 px² for text-sized
 *    polygons.
 */
import { Clipper, FillRule, type Path64, type Paths64 } from 'clipper2-ts';
import {
  clipArea,
  convexHull,
  counterClockwise,
  dedupeRing,
  isConvexSimpleRing,
  isSimpleRing,
  signedArea,
  triangulate,
  type Bounds,
  type Ring,
} from './polygon';

export interface Region extends Bounds {
  /** Outer rings counter-clockwise, holes clockwise (after a repair); [] for an empty region. */
  rings: Ring[];
  /** Area of the region (outer rings minus holes). */
  area: number;
  /** Exactly one convex counter-clockwise ring: the fast exact path applies. */
  convex: boolean;
  /** One simple ring without holes: it can be triangulated. */
  simple: boolean;
  /** The ring was invalid and was repaired. */
  repaired: boolean;
  /** Pieces the repair left (before a convex hull merged them); 1 for a valid ring. */
  pieces: number;
  /** Triangles tiling a simple region (6 numbers each), made on first use; null = cannot. */
  triangles?: Float64Array | null;
}

/**
 * What to do when the repair leaves several pieces: MMOCR 1.x takes their convex hull
 * (`poly_make_valid`), MMOCR 0.x keeps the multi-polygon.
 */
export type MultiPieceMode = 'hull' | 'pieces';

function regionOf(rings: Ring[], repaired: boolean, pieces: number, simple: boolean, convex: boolean): Region {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let area = 0;
  for (const r of rings) {
    area += signedArea(r);
    for (let i = 0; i + 1 < r.length; i += 2) {
      const x = r[i], y = r[i + 1];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const one = rings.length === 1 && simple;
  return {
    // A single ring is stored counter-clockwise: the half-plane clipper relies on it.
    rings: one ? [counterClockwise(rings[0])] : rings,
    area: Math.abs(area),
    convex: one && convex,
    simple: one,
    repaired,
    pieces: rings.length === 0 ? 0 : pieces,
    minX,
    minY,
    maxX,
    maxY,
  };
}

/** The region shapely would intersect for `Polygon(points)` (after `poly_make_valid`). */
export function makeRegion(points: Ring, mode: MultiPieceMode): Region {
  const ring = dedupeRing(points);
  if (isConvexSimpleRing(ring)) return regionOf([ring], false, 1, true, true);
  if (isSimpleRing(ring)) return regionOf([ring], false, 1, true, false);
  const rings = repairRing(ring);
  const outers = rings.filter((r) => signedArea(r) > 0);
  if (mode === 'hull' && outers.length > 1) {
    const all: number[] = [];
    for (const r of outers) for (let i = 0; i < r.length; i++) all.push(r[i]);
    const hull = convexHull(all);
    return hull.length >= 6 ? regionOf([hull], true, outers.length, true, true) : regionOf([], true, outers.length, false, false);
  }
  const single = rings.length === 1;
  return regionOf(rings, true, outers.length, single, single && isConvexSimpleRing(rings[0]));
}

/** An integer grid for Clipper: shift to the pair's corner, scale by a power of two (exact). */
export interface Grid {
  ox: number;
  oy: number;
  s: number;
}

// Coordinates stay under 2^26 (< 9e7) so Clipper2's cross products are exact doubles (its fast path).
const GRID_SPAN = 2 ** 26;

export function gridFor(b: Bounds): Grid {
  const extent = Math.max(b.maxX - b.minX, b.maxY - b.minY);
  const k = extent > 0 ? Math.max(-30, Math.min(40, Math.floor(Math.log2(GRID_SPAN / extent)))) : 0;
  return { ox: b.minX, oy: b.minY, s: 2 ** k };
}

function toPath(r: Ring, g: Grid): Path64 {
  const n = r.length >> 1;
  const out: Path64 = new Array(n);
  for (let i = 0; i < n; i++) out[i] = { x: Math.round((r[2 * i] - g.ox) * g.s), y: Math.round((r[2 * i + 1] - g.oy) * g.s) };
  return out;
}

function fromPath(p: Path64, g: Grid): number[] {
  const out = new Array<number>(p.length * 2);
  for (let i = 0; i < p.length; i++) {
    out[2 * i] = p[i].x / g.s + g.ox;
    out[2 * i + 1] = p[i].y / g.s + g.oy;
  }
  return out;
}

function boundsOfRing(r: Ring): Bounds {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i + 1 < r.length; i += 2) {
    minX = Math.min(minX, r[i]);
    maxX = Math.max(maxX, r[i]);
    minY = Math.min(minY, r[i + 1]);
    maxY = Math.max(maxY, r[i + 1]);
  }
  return { minX, minY, maxX, maxY };
}

/**
 * shapely's `buffer(0)` of an invalid ring (checked against GEOS 3.11 by the spec's authors):
 * split the ring into the faces its self-intersections make and keep the faces whose winding
 * sign equals the sign of the ring's signed area, a zero total counting as negative. That is
 * exactly Clipper's Positive / Negative fill rule applied to the ring alone.
 */
export function repairRing(ring: Ring): Ring[] {
  if (ring.length < 6) return [];
  const g = gridFor(boundsOfRing(ring));
  const rule = signedArea(ring) > 0 ? FillRule.Positive : FillRule.Negative;
  const out = Clipper.union([toPath(ring, g)], rule);
  const rings: Ring[] = [];
  for (const p of out) if (p.length >= 3) for (const r of splitAtRepeatedVertex(fromPath(p, g))) rings.push(r);
  return rings;
}

/**
 * Clipper may return one path that passes through the same vertex twice (two lobes touching at a
 * point, e.g. the ring 0,0 20,0 10,10 20,20 0,20 10,10). GEOS never does: such lobes are separate
 * polygons of a MultiPolygon (or, when a loop turns the other way, a hole touching the shell). The
 * piece count decides whether MMOCR 1.x takes the convex hull, so split those paths into loops.
 */
function splitAtRepeatedVertex(r: number[]): number[][] {
  const n = r.length >> 1;
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = `${r[2 * i]},${r[2 * i + 1]}`;
    const j = seen.get(key);
    if (j !== undefined) {
      const loop = r.slice(2 * j, 2 * i);
      const rest = r.slice(0, 2 * j).concat(r.slice(2 * i));
      return [...splitAtRepeatedVertex(rest), ...splitAtRepeatedVertex(loop)].filter((x) => x.length >= 6 && signedArea(x) !== 0);
    }
    seen.set(key, i);
  }
  return [r];
}

/** The triangles of a simple region (made once), or null when only the general clipper can do it. */
function trianglesOf(r: Region): Float64Array | null {
  if (r.triangles === undefined) r.triangles = r.simple && r.rings[0].length <= 2 * 256 ? triangulate(r.rings[0]) : null;
  return r.triangles;
}

/** Area of the intersection of two regions. */
export function intersectionArea(a: Region, b: Region): number {
  if (a.rings.length === 0 || b.rings.length === 0) return 0;
  if (a.maxX <= b.minX || b.maxX <= a.minX || a.maxY <= b.minY || b.maxY <= a.minY) return 0;
  if (b.convex && (a.convex || a.simple)) return clipArea(a.rings[0], b.rings[0]);
  if (a.convex && b.simple) return clipArea(b.rings[0], a.rings[0]);
  if (a.simple && b.simple) {
    // Triangulate the one with fewer vertices; clip the other by each triangle that can overlap it.
    const [cut, whole] = a.rings[0].length <= b.rings[0].length ? [a, b] : [b, a];
    const tris = trianglesOf(cut);
    if (tris) {
      const ring = whole.rings[0];
      let sum = 0;
      for (let t = 0; t < tris.length; t += 6) {
        const x0 = Math.min(tris[t], tris[t + 2], tris[t + 4]);
        const x1 = Math.max(tris[t], tris[t + 2], tris[t + 4]);
        const y0 = Math.min(tris[t + 1], tris[t + 3], tris[t + 5]);
        const y1 = Math.max(tris[t + 1], tris[t + 3], tris[t + 5]);
        if (x1 <= whole.minX || x0 >= whole.maxX || y1 <= whole.minY || y0 >= whole.maxY) continue;
        sum += clipArea(ring, tris, t, 6);
      }
      return sum;
    }
  }
  return clipperIntersectionArea(a, b);
}

/** The general path: Clipper2 on an integer grid fitted to the pair. */
export function clipperIntersectionArea(a: Region, b: Region): number {
  if (a.rings.length === 0 || b.rings.length === 0) return 0;
  const g = gridFor({
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
  });
  const sa: Paths64 = a.rings.map((r) => toPath(r, g));
  const sb: Paths64 = b.rings.map((r) => toPath(r, g));
  const inter = Clipper.intersect(sa, sb, FillRule.NonZero);
  return Math.abs(Clipper.areaPaths(inter)) / (g.s * g.s);
}

/** `inter / union`, 0 when the union is empty; `inter` may be passed when already known. */
export function regionIoU(a: Region, b: Region, inter = intersectionArea(a, b)): number {
  const union = a.area + b.area - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * IoU of the geometric union of `parts` with `target` (errors.md `split`): Clipper2 on one
 * integer grid fitted to all of them. 0 when either side is empty.
 */
export function unionIoU(target: Region, parts: readonly Region[]): number {
  const live = parts.filter((p) => p.rings.length > 0);
  if (target.rings.length === 0 || live.length === 0) return 0;
  let minX = target.minX, minY = target.minY, maxX = target.maxX, maxY = target.maxY;
  for (const p of live) {
    minX = Math.min(minX, p.minX);
    minY = Math.min(minY, p.minY);
    maxX = Math.max(maxX, p.maxX);
    maxY = Math.max(maxY, p.maxY);
  }
  const g = gridFor({ minX, minY, maxX, maxY });
  const u = Clipper.union(live.flatMap((p) => p.rings.map((r) => toPath(r, g))), FillRule.NonZero);
  const t = target.rings.map((r) => toPath(r, g));
  const s2 = g.s * g.s;
  const uArea = Math.abs(Clipper.areaPaths(u)) / s2;
  const inter = Math.abs(Clipper.areaPaths(Clipper.intersect(u, t, FillRule.NonZero))) / s2;
  const union = uArea + target.area - inter;
  return union > 0 ? inter / union : 0;
}

/** The region of a box `[x0, y0, x1, y1]` (empty when degenerate). */
export function boxRegion(b: readonly number[]): Region {
  return makeRegion([b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]], 'pieces');
}
