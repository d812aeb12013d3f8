/**
 * `polygon_invalid`: what the LTB protocol (MMOCR's hmean-iou through shapely) does with a GT
 * polygon that is not a valid simple ring — the repair the scorer itself uses
 * (geometry/polygonRegion.ts makeRegion: shapely's buffer(0), then MMOCR 1.x's convex hull of
 * several pieces, or MMOCR 0.6.3's multi-polygon).
 */
import { convexHull, dedupeRing, isSimpleRing, ringArea } from '../geometry/polygon';
import { makeRegion, regionIoU } from '../geometry/polygonRegion';
import { area, ratio } from './format';

function distinctPoints(p: ArrayLike<number>): number {
  const seen = new Set<string>();
  for (let i = 0; i + 1 < p.length; i += 2) seen.add(`${p[i]},${p[i + 1]}`);
  return seen.size;
}

/**
 * Null for a valid ring; else the `detail` of a polygon_invalid finding: what is wrong, the area
 * the repair leaves, and the IoU a correct detection (the shape the annotator meant: the
 * quadrilateral of a 4-point bow-tie, else the convex hull of the points) would score.
 */
export function polygonDefect(points: ArrayLike<number>): string | null {
  const n = points.length >> 1;
  const ring = dedupeRing(points);
  if (isSimpleRing(ring)) return null;
  const distinct = distinctPoints(points);
  if (distinct < 3) {
    return `${n}-point polygon with ${distinct} distinct point${distinct === 1 ? '' : 's'}: area 0, so every detection scores IoU 0 with it (a care instance is a certain miss)`;
  }
  if (ringArea(ring) === 0 && convexHull(ring).length < 6) {
    return `${n}-point polygon whose points all lie on one line: area 0, so every detection scores IoU 0 with it (a care instance is a certain miss)`;
  }
  const hull = convexHull(ring);
  const meant = makeRegion(hull, 'hull');
  const r101 = makeRegion(points, 'hull');
  const r063 = makeRegion(points, 'pieces');
  const what = n === 4 ? 'self-intersecting (bow-tie) 4-point polygon' : `self-intersecting ${n}-point polygon`;
  const meantName = n === 4 ? 'the quadrilateral its points make' : 'the convex hull of its points';
  const iou101 = regionIoU(r101, meant);
  let out =
    `${what}; MMOCR 1.0.1 repairs it (shapely buffer(0)${r101.pieces > 1 ? `, convex hull of its ${r101.pieces} pieces` : ''}) ` +
    `to area ${area(r101.area)} of ${area(meant.area)} px² (${meantName}): a correct detection scores IoU ${ratio(iou101)}`;
  if (iou101 <= 0.5) out += ', not a match at the 0.5 threshold';
  const iou063 = regionIoU(r063, meant);
  if (Math.abs(r063.area - r101.area) > 1e-6) {
    out += `; MMOCR 0.6.3 keeps ${r063.pieces} piece${r063.pieces === 1 ? '' : 's'} of area ${area(r063.area)}: IoU ${ratio(iou063)}`;
  }
  return out;
}
