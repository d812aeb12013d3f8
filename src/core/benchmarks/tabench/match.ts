/**
 * Greedy one-to-one box matching shared by TABench (pairs with IoU ≥ t) and gansulishuzhi
 * (pairs with IoU > 0): every accepted (GT, pred) pair sorted by IoU descending, ties kept in
 * (GT index, prediction index) order, GT-major, then taken when both sides are still free.
 * This is the specs' "greedy", not an optimal assignment: a GT that takes its best prediction
 * first may leave another GT unmatched.
 */
import { boxIoU } from '../../geometry/box';

export interface Pair {
  gt: number;
  pred: number;
  iou: number;
}

export interface GreedyResult {
  pairs: Pair[];
  /** Partner index per GT / pred, -1 when unmatched. */
  gtPartner: Int32Array;
  predPartner: Int32Array;
  /** Best IoU per GT / pred against any box of the other side (0 when none). */
  gtBest: Float64Array;
  predBest: Float64Array;
}

export function greedyMatch(
  gts: readonly (readonly number[])[],
  preds: readonly (readonly number[])[],
  accept: (iou: number) => boolean,
): GreedyResult {
  const gtPartner = new Int32Array(gts.length).fill(-1);
  const predPartner = new Int32Array(preds.length).fill(-1);
  const gtBest = new Float64Array(gts.length);
  const predBest = new Float64Array(preds.length);
  const candidates: Pair[] = [];
  for (let g = 0; g < gts.length; g++) {
    for (let p = 0; p < preds.length; p++) {
      const iou = boxIoU(gts[g], preds[p]);
      if (iou > gtBest[g]) gtBest[g] = iou;
      if (iou > predBest[p]) predBest[p] = iou;
      if (accept(iou)) candidates.push({ gt: g, pred: p, iou });
    }
  }
  // Array.prototype.sort is stable, and candidates were pushed GT-major: ties keep that order.
  candidates.sort((a, b) => b.iou - a.iou);
  const pairs: Pair[] = [];
  for (const c of candidates) {
    if (gtPartner[c.gt] >= 0 || predPartner[c.pred] >= 0) continue;
    gtPartner[c.gt] = c.pred;
    predPartner[c.pred] = c.gt;
    pairs.push(c);
  }
  return { pairs, gtPartner, predPartner, gtBest, predBest };
}

/** "0.42" — two decimals, more when two would hide which side of the threshold a value is on. */
export function formatIoU(iou: number, threshold: number): string {
  for (let d = 2; d < 10; d++) {
    const s = iou.toFixed(d);
    if (Number(s) >= threshold === iou >= threshold) return s;
  }
  return String(iou);
}
