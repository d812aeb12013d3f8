/**
 * Selection matching of the spec: per sample and page, selected predictions in file order each
 * take the best unmatched selected GT item with token overlap ≥ 0.80 that passes the centroid
 * veto. Ties: higher overlap, then smaller centroid distance (a missing distance sorts after any
 * defined one), then lower GT index.
 */
import { centroidDistance, type SelItem } from './items';
import { tokenOverlap } from './tokens';

/** Fixed by the card; not an option. */
export const OVERLAP_MIN = 0.8;

export interface MatchOptions {
  /** Overlap of two empty token sets (0 or 1). */
  emptyOverlap: number;
  /** Maximum centroid distance; negative (the scorer's -1) disables the veto. */
  centroidMax: number;
  /** With the veto on, whether a missing box passes the veto (pass) or fails it (fail). */
  missingBox: 'pass' | 'fail';
}

export const DEFAULT_MATCH_OPTIONS: MatchOptions = { emptyOverlap: 0, centroidMax: 0.35, missingBox: 'pass' };

export type VetoResult = 'pass' | 'far' | 'missing_box';

export interface PairInfo {
  overlap: number;
  /** Null when either item has no 8-number box. */
  distance: number | null;
  veto: VetoResult;
}

export function pairInfo(gt: SelItem, pred: SelItem, opt: MatchOptions): PairInfo {
  const overlap = tokenOverlap(gt.tokens, pred.tokens, opt.emptyOverlap);
  const distance = gt.centroid && pred.centroid ? centroidDistance(gt.centroid, pred.centroid) : null;
  let veto: VetoResult = 'pass';
  if (opt.centroidMax >= 0) {
    if (distance === null) veto = opt.missingBox === 'fail' ? 'missing_box' : 'pass';
    else if (!(distance <= opt.centroidMax)) veto = 'far';
  }
  return { overlap, distance, veto };
}

/** True when candidate `a` beats `b` (overlap, then distance with missing last, then GT index). */
export function better(a: PairInfo, ai: number, b: PairInfo, bi: number): boolean {
  if (a.overlap !== b.overlap) return a.overlap > b.overlap;
  if (a.distance !== b.distance) {
    if (a.distance === null) return false;
    if (b.distance === null) return true;
    if (a.distance !== b.distance) return a.distance < b.distance;
  }
  return ai < bi;
}

export interface SampleMatch {
  /** For each prediction (index into `preds`): the GT index it matched, or null. */
  predToGt: (number | null)[];
  /** For each GT item: the prediction index that took it, or null. */
  gtToPred: (number | null)[];
  /** The pair facts of every matched pair, keyed `${gt}:${pred}`. */
  pairs: Map<string, PairInfo>;
}

/**
 * Matches the selected predictions `preds` (file order) to the selected GT `gt` of one sample.
 * Only predictions whose `selected` flag holds belong in `preds`.
 */
export function matchSample(gt: readonly SelItem[], preds: readonly SelItem[], opt: MatchOptions): SampleMatch {
  const predToGt: (number | null)[] = preds.map(() => null);
  const gtToPred: (number | null)[] = gt.map(() => null);
  const pairs = new Map<string, PairInfo>();
  for (let p = 0; p < preds.length; p++) {
    const pred = preds[p];
    let best = -1;
    let bestInfo: PairInfo | null = null;
    for (let g = 0; g < gt.length; g++) {
      if (gtToPred[g] !== null || gt[g].page !== pred.page) continue;
      const info = pairInfo(gt[g], pred, opt);
      if (info.overlap < OVERLAP_MIN || info.veto !== 'pass') continue;
      if (bestInfo === null || better(info, g, bestInfo, best)) {
        best = g;
        bestInfo = info;
      }
    }
    if (bestInfo !== null) {
      predToGt[p] = best;
      gtToPred[best] = p;
      pairs.set(`${best}:${p}`, bestInfo);
    }
  }
  return { predToGt, gtToPred, pairs };
}
