/**
 * Per-unit class counts and what fixing each class is worth (errors.md "dHmean"), with the
 * protocol's own rates passed in (LTB's compute_hmean, the F1 of gansulishuzhi / TABench).
 */
import { FN_CLASSES, FP_CLASSES, type ErrorClass, type UnitErrors } from '../model';

export type HmeanOf = (hits: number, gt: number, pred: number) => number;

/** F1 as gansulishuzhi and TABench (micro) compute it: precision / recall 0 when undefined. */
export function f1Of(hits: number, gt: number, pred: number): number {
  const p = pred > 0 ? hits / pred : 0;
  const r = gt > 0 ? hits / gt : 0;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

export interface UnitTally {
  threshold: number | null;
  gt: number;
  pred: number;
  hits: number;
  fn: Float64Array;
  fp: Float64Array;
}

export function newTally(threshold: number | null): UnitTally {
  return { threshold, gt: 0, pred: 0, hits: 0, fn: new Float64Array(FN_CLASSES.length), fp: new Float64Array(FP_CLASSES.length) };
}

/** The classes that appear on either side, in a stable order (FN order, then FP-only classes). */
const ALL_CLASSES: readonly ErrorClass[] = [...new Set<ErrorClass>([...FN_CLASSES, ...FP_CLASSES])];

/** Counts of one class: a name used on both sides counts its FNs and FPs together. */
export function classCounts(t: Pick<UnitTally, 'fn' | 'fp'>, c: ErrorClass): { fn: number; fp: number } {
  const i = (FN_CLASSES as readonly string[]).indexOf(c);
  const j = (FP_CLASSES as readonly string[]).indexOf(c);
  return { fn: i >= 0 ? t.fn[i] : 0, fp: j >= 0 ? t.fp[j] : 0 };
}

/** The report entry: counts (zero classes left out) and dHmean per class, all_fp, all_fn. */
export function unitErrors(t: UnitTally, hmean: HmeanOf): UnitErrors {
  const fn: UnitErrors['fn'] = {};
  const fp: UnitErrors['fp'] = {};
  FN_CLASSES.forEach((c, i) => {
    if (t.fn[i] > 0) fn[c] = t.fn[i];
  });
  FP_CLASSES.forEach((c, i) => {
    if (t.fp[i] > 0) fp[c] = t.fp[i];
  });
  const base = hmean(t.hits, t.gt, t.pred);
  const dhmean: UnitErrors['dhmean'] = {};
  for (const c of ALL_CLASSES) {
    const n = classCounts(t, c);
    if (n.fn === 0 && n.fp === 0) continue;
    // One correct prediction for every FN of the class, none of its FPs.
    dhmean[c] = hmean(t.hits + n.fn, t.gt, t.pred - n.fp + n.fn) - base;
  }
  dhmean.all_fp = hmean(t.hits, t.gt, t.hits) - base;
  dhmean.all_fn = hmean(t.gt, t.gt, t.pred + (t.gt - t.hits)) - base;
  return { threshold: t.threshold, gt: t.gt, pred: t.pred, hits: t.hits, fn, fp, dhmean };
}
