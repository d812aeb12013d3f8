/**
 * Everything geometric about one image under one variant, computed once and shared by the 15
 * splits and all thresholds: which predictions pass the pre-filter, every (GT, prediction) pair
 * that overlaps with its IoU and don't-care overlap share, and which GT would swallow which
 * prediction if it were don't care. Splits then differ only in bit tests.
 */
import { ringArea } from '../../geometry/polygon';
import { intersectionArea, makeRegion, type Region } from '../../geometry/polygonRegion';
import type { LtbImage } from './dataset';
import type { Variant } from './protocol';
import type { LtbPredImage } from './readPredictions';

export interface ImageGeom {
  /** Per GT: split bits where it is care, and where it is don't care (listed, not care); 0 when the variant drops it. */
  careM: number[];
  dcM: number[];
  /** Indices (input order) of the predictions that pass the pre-filter. */
  kept: number[];
  /** Per kept prediction: how many thresholds its score passes (≥ 1). */
  level: number[];
  /** Pairs with a positive intersection, GT-major; GT g owns pairs [gStart[g], gStart[g+1]). */
  gStart: number[];
  /** Kept-prediction position (index into `kept`) of each pair, ascending within a GT. */
  pk: number[];
  piou: number[];
  /** Areas after repair (the error taxonomy's inside(a, b) recovers a pair's intersection from them and the IoU): per GT (0 when no prediction came near it), per kept prediction. */
  gArea: number[];
  kArea: number[];
  /** Don't-care overlap share of the prediction with this GT (the variant's formula). */
  pratio: number[];
  /** Per kept prediction, GTs whose overlap share is > 0.5: swStart / swG (CSR, GT ascending). */
  swStart: number[];
  swG: number[];
  /** Polygons that were invalid and repaired (GT, then kept predictions). */
  repairedGt: number;
  repairedPred: number;
}

function cast(points: ArrayLike<number>, f32: boolean): number[] {
  const out = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) out[i] = f32 ? Math.fround(points[i]) : points[i];
  return out;
}

export function imageGeometry(img: LtbImage, preds: LtbPredImage | undefined, v: Variant): ImageGeom {
  const nGt = img.gt.length;
  const careM = new Array<number>(nGt);
  const dcM = new Array<number>(nGt);
  for (let g = 0; g < nGt; g++) {
    const gt = img.gt[g];
    const dropped = v.cocoDrops && gt.drop063;
    careM[g] = dropped ? 0 : gt.care & gt.present;
    dcM[g] = dropped ? 0 : gt.present & ~gt.care;
  }
  // Plain arrays, not typed ones: 20,000 images × a dozen small typed arrays cost more to allocate.
  const kept: number[] = [];
  const level: number[] = [];
  if (preds) {
    for (let k = 0; k < preds.scores.length; k++) {
      const lv = v.level(preds.scores[k]);
      if (lv > 0) {
        kept.push(k);
        level.push(lv);
      }
    }
  }
  const nK = kept.length;
  const gStart = new Array<number>(nGt + 1).fill(0);
  if (nK === 0 || nGt === 0) {
    return { careM, dcM, kept, level, gStart, pk: [], piou: [], gArea: new Array<number>(nGt).fill(0), kArea: new Array<number>(nK).fill(0), pratio: [], swStart: new Array<number>(nK + 1).fill(0), swG: [], repairedGt: 0, repairedPred: 0 };
  }
  const predRegions: Region[] = new Array(nK);
  const rawAreas = new Array<number>(nK);
  const kArea = new Array<number>(nK);
  let repairedPred = 0;
  for (let j = 0; j < nK; j++) {
    const p = preds!;
    const pts = cast(p.coords.subarray(p.start[kept[j]], p.start[kept[j] + 1]), v.f32);
    rawAreas[j] = ringArea(pts);
    predRegions[j] = makeRegion(pts, v.multi);
    kArea[j] = predRegions[j].area;
    if (predRegions[j].repaired) repairedPred++;
  }
  const pk: number[] = [];
  const piou: number[] = [];
  const gArea = new Array<number>(nGt).fill(0);
  const pratio: number[] = [];
  let repairedGt = 0;
  let swallowed = 0;
  for (let g = 0; g < nGt; g++) {
    gStart[g] = pk.length;
    if (careM[g] === 0 && dcM[g] === 0) continue;
    const pts = v.f32 ? cast(img.gt[g].points, true) : img.gt[g].points;
    const bx = boundsOf(pts);
    let region: Region | null = null;
    for (let j = 0; j < nK; j++) {
      const r = predRegions[j];
      // Bounding-box pruning: only overlapping pairs cost a polygon intersection.
      if (r.maxX <= bx.minX || r.minX >= bx.maxX || r.maxY <= bx.minY || r.minY >= bx.maxY) continue;
      if (!region) {
        region = makeRegion(pts, v.multi);
        if (region.repaired) repairedGt++;
        gArea[g] = region.area;
      }
      const inter = intersectionArea(region, r);
      if (!(inter > 0)) continue;
      const union = region.area + r.area - inter;
      pk.push(j);
      piou.push(union > 0 ? inter / union : 0);
      const ratio = v.overlap(inter, rawAreas[j]);
      pratio.push(ratio);
      if (ratio > 0.5) swallowed++;
    }
  }
  gStart[nGt] = pk.length;
  const swStart = new Array<number>(nK + 1).fill(0);
  const swG = new Array<number>(swallowed).fill(0);
  if (swallowed > 0) {
    for (let p = 0; p < pk.length; p++) if (pratio[p] > 0.5) swStart[pk[p] + 1]++;
    for (let j = 0; j < nK; j++) swStart[j + 1] += swStart[j];
    const fill = swStart.slice(0, nK);
    for (let g = 0; g < nGt; g++) {
      for (let p = gStart[g]; p < gStart[g + 1]; p++) if (pratio[p] > 0.5) swG[fill[pk[p]]++] = g;
    }
  }
  return { careM, dcM, kept, level, gStart, pk, piou, gArea, kArea, pratio, swStart, swG, repairedGt, repairedPred };
}

function boundsOf(p: ArrayLike<number>) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i + 1 < p.length; i += 2) {
    const x = p[i], y = p[i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}
