/**
 * The error taxonomy for benchmarks with axis-aligned boxes (gansulishuzhi, TABench T2R,
 * Chronicles spotting): builds the classifier's input from the boxes of one case and the
 * official pairs, and applies the classes to the case's instances.
 */
import { boxArea } from '../geometry/box';
import { boxUnionIoU } from '../geometry/rectUnion';
import { ERROR_SLOTS, FN_CLASSES, FP_CLASSES, type ErrorClass, type ErrorWith, type Instance } from '../model';
import { classifyImage, ROLE_P, type ErrorImage, type ErrorResult, type ErrorRules } from './classify';

export interface BoxCase {
  gt: readonly (readonly number[])[];
  pred: readonly (readonly number[])[];
  /** The official pairs at the unit's threshold (-1 = unmatched). */
  gtPartner: ArrayLike<number>;
  predPartner: ArrayLike<number>;
  /** 1 = counts in the metric; default every GT / every prediction (Chronicles leaves UNK out). */
  care?: ArrayLike<number>;
  role?: ArrayLike<number>;
}

/** IoU and intersection of two boxes (continuous, 0 for degenerate ones), as boxIoU computes them. */
function overlap(a: readonly number[], b: readonly number[], aa: number, ab: number): [number, number] {
  if (aa <= 0 || ab <= 0) return [0, 0];
  const iw = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const ih = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (iw <= 0 || ih <= 0) return [0, 0];
  const inter = iw * ih;
  const union = aa + ab - inter;
  return [union > 0 ? inter / union : 0, inter];
}

export function boxErrorImage(c: BoxCase): ErrorImage {
  const nGt = c.gt.length;
  const nPred = c.pred.length;
  const gArea = c.gt.map(boxArea);
  const pArea = c.pred.map(boxArea);
  const gStart = new Array<number>(nGt + 1);
  const pp: number[] = [];
  const piou: number[] = [];
  const pinter: number[] = [];
  for (let g = 0; g < nGt; g++) {
    gStart[g] = pp.length;
    for (let p = 0; p < nPred; p++) {
      const [iou, inter] = overlap(c.gt[g], c.pred[p], gArea[g], pArea[p]);
      if (inter > 0) {
        pp.push(p);
        piou.push(iou);
        pinter.push(inter);
      }
    }
  }
  gStart[nGt] = pp.length;
  return {
    nGt,
    care: c.care ?? new Uint8Array(nGt).fill(1),
    nPred,
    role: c.role ?? new Uint8Array(nPred).fill(ROLE_P),
    gStart,
    pp,
    piou,
    pinter,
    gArea,
    pArea,
    gtPartner: c.gtPartner,
    predPartner: c.predPartner,
  };
}

/**
 * What classing one case's boxes at one threshold leaves for the next (gansulishuzhi classes the
 * same boxes at 0.3, 0.5 and 0.7): the overlapping pairs, which do not depend on the threshold,
 * and the union IoUs by GT (reused when the GT's parts are the same). Made with `newBoxMemo()`.
 */
export interface BoxMemo {
  image: ErrorImage | null;
  unions: Map<number, { parts: number[]; iou: number }>;
}

export function newBoxMemo(): BoxMemo {
  return { image: null, unions: new Map() };
}

function sameParts(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Classes one case of boxes; the protocol's pair rule is IoU ≥ `iou` (or > when `strict`). */
export function classifyBoxes(
  c: BoxCase,
  iou: number,
  strict: boolean,
  withs: boolean,
  textEqual?: (g: number, p: number) => boolean,
  memo?: BoxMemo,
): { im: ErrorImage; res: ErrorResult } {
  // Only the official pairs differ from one threshold to the next.
  const im = memo?.image ? { ...memo.image, gtPartner: c.gtPartner, predPartner: c.predPartner } : boxErrorImage(c);
  if (memo) memo.image = im;
  const union = (g: number, parts: readonly number[]): number => {
    const known = memo?.unions.get(g);
    if (known && sameParts(known.parts, parts)) return known.iou;
    // Boxes union as rectangles (a sweep line): Clipper2's polygon union grew quadratically with the parts.
    const v = boxUnionIoU(c.gt[g], parts.map((p) => c.pred[p]));
    memo?.unions.set(g, { parts: [...parts], iou: v });
    return v;
  };
  const rules: ErrorRules = {
    iou,
    strict,
    ...(textEqual ? { textEqual } : {}),
    unionIoU: union,
  };
  // A fresh result: the caller may keep it while classing the next case.
  const res = classifyImage(im, rules, withs, { fn: new Int8Array(im.nGt), fp: new Int8Array(im.nPred) });
  return { im, res };
}

/**
 * Writes the classes onto the case's `fn` / `fp` instances (ids = box indices) and adds them to
 * `counts` at `at` (ERROR_SLOTS order). Instances in another state are left alone.
 */
export function applyClasses(res: ErrorResult, gt: Instance[], pred: Instance[], counts?: Uint16Array, at = 0): void {
  const apply = (list: Instance[], state: 'fn' | 'fp', k: ArrayLike<number>, with_: (ErrorWith | undefined)[] | undefined, classes: readonly ErrorClass[], slot0: number) => {
    for (const inst of list) {
      const c = k[inst.id];
      if (inst.state !== state || c === undefined || c < 0) continue;
      inst.error = classes[c];
      const w = with_?.[inst.id];
      if (w) inst.error_with = w;
      if (counts && counts[slot0 + c] < 65535) counts[slot0 + c]++;
    }
  };
  apply(gt, 'fn', res.fn, res.fnWith, FN_CLASSES, at);
  apply(pred, 'fp', res.fp, res.fpWith, FP_CLASSES, at + FN_CLASSES.length);
}

export const SLOTS = ERROR_SLOTS.length;
