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

/** dHmean keys in order: every class name, then all_fp, all_fn. */
export const DH_KEYS: readonly (ErrorClass | 'all_fp' | 'all_fn')[] = [...ALL_CLASSES, 'all_fp', 'all_fn'];

/**
 * For a metric that is a mean of per-case values (TABench macro F1, Chronicles' per-row F1):
 * adds one case's dHmean per key (DH_KEYS order) to `sum`; the unit's dHmean is sum / cases.
 */
export function addCaseDeltas(sum: Float64Array, hmean: HmeanOf, hits: number, gt: number, pred: number, fn: ArrayLike<number>, fp: ArrayLike<number>): void {
  const base = hmean(hits, gt, pred);
  const t = { fn, fp } as Pick<UnitTally, 'fn' | 'fp'>;
  let fnAll = 0;
  for (let i = 0; i < fn.length; i++) fnAll += fn[i];
  ALL_CLASSES.forEach((c, i) => {
    const n = classCounts(t, c);
    if (n.fn !== 0 || n.fp !== 0) sum[i] += hmean(hits + n.fn, gt, pred - n.fp + n.fn) - base;
  });
  sum[ALL_CLASSES.length] += hmean(hits, gt, hits) - base;
  sum[ALL_CLASSES.length + 1] += hmean(hits + fnAll, gt, pred + fnAll) - base;
}

export interface CaseMean {
  /** DH_KEYS order. */
  sum: Float64Array;
  cases: number;
}

export function newCaseMean(): CaseMean {
  return { sum: new Float64Array(DH_KEYS.length), cases: 0 };
}

/**
 * The report entry: counts (zero classes left out) and dHmean per class, all_fp, all_fn —
 * pooled with `hmean`, or, for a per-case mean metric, the mean of the case deltas (`perCase`).
 */
export function unitErrors(t: UnitTally, hmean: HmeanOf, perCase?: CaseMean): UnitErrors {
  const fn: UnitErrors['fn'] = {};
  const fp: UnitErrors['fp'] = {};
  FN_CLASSES.forEach((c, i) => {
    if (t.fn[i] > 0) fn[c] = t.fn[i];
  });
  FP_CLASSES.forEach((c, i) => {
    if (t.fp[i] > 0) fp[c] = t.fp[i];
  });
  const dhmean: UnitErrors['dhmean'] = {};
  if (perCase) {
    const n = perCase.cases;
    ALL_CLASSES.forEach((c, i) => {
      const k = classCounts(t, c);
      if (k.fn !== 0 || k.fp !== 0) dhmean[c] = n > 0 ? perCase.sum[i] / n : 0;
    });
    dhmean.all_fp = n > 0 ? perCase.sum[ALL_CLASSES.length] / n : 0;
    dhmean.all_fn = n > 0 ? perCase.sum[ALL_CLASSES.length + 1] / n : 0;
    return { threshold: t.threshold, gt: t.gt, pred: t.pred, hits: t.hits, fn, fp, dhmean };
  }
  const base = hmean(t.hits, t.gt, t.pred);
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
