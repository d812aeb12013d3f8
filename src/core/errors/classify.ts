/**
 * The error taxonomy of shared/specs/errors.md for one image (one case) of one unit: every missed
 * care GT (FN) and every unmatched prediction that takes part (FP) gets exactly one class, the
 * first rule of the spec's list that applies. Benchmark-agnostic: the adapter hands in the
 * official pairs and a sparse list of overlapping (GT, prediction) pairs it has already computed
 * for scoring, so no IoU is computed twice. Only a `split` candidate costs new geometry (a union).
 */
import { FN_CLASSES, FP_CLASSES, type ErrorWith, type FnClass, type FpClass } from '../model';

/** What a prediction is in the unit: takes part (P), ignored by the don't-care filter (I), under the threshold / pre-filter (B), or no part at all (UNK). */
export const ROLE_P = 0;
export const ROLE_I = 1;
export const ROLE_B = 2;
export const ROLE_NONE = 3;

export const FN = Object.fromEntries(FN_CLASSES.map((c, i) => [c, i])) as Record<FnClass, number>;
export const FP = Object.fromEntries(FP_CLASSES.map((c, i) => [c, i])) as Record<FpClass, number>;

export interface ErrorImage {
  nGt: number;
  /** 1 for a care GT of the unit (the ones the metric counts), else 0. */
  care: ArrayLike<number>;
  nPred: number;
  /** ROLE_* per prediction. */
  role: ArrayLike<number>;
  /** Overlapping pairs (positive intersection), GT-major: GT g owns [gStart[g], gStart[g+1]). */
  gStart: ArrayLike<number>;
  pp: ArrayLike<number>;
  piou: ArrayLike<number>;
  /**
   * Intersection area of the pair (after the protocol's polygon repair); when absent it is
   * recovered from the IoU and the areas, inter = IoU · (area(g) + area(p)) / (1 + IoU), exact
   * up to rounding (LTB keeps no per-pair area, to stay small on millions of pairs).
   */
  pinter?: ArrayLike<number>;
  /** Areas after repair: inside(a, b) = inter / area(a). */
  gArea: ArrayLike<number>;
  pArea: ArrayLike<number>;
  /** The official pairs at the unit's threshold (-1 = unmatched). */
  gtPartner: ArrayLike<number>;
  predPartner: ArrayLike<number>;
}

export interface ErrorRules {
  /** The protocol's pair rule on the box / polygon IoU ("would match", ignoring use): IoU > iou when strict, else IoU ≥ iou. */
  iou: number;
  strict: boolean;
  /** Text benchmarks: the texts of GT g and prediction p agree (absent: no text check). */
  textEqual?(g: number, p: number): boolean;
  /** LTB's first-fit: the `order` class applies. */
  order?: boolean;
  /** IoU of the geometric union of predictions `parts` with GT g. */
  unionIoU(g: number, parts: readonly number[]): number;
  /** B predictions that have no pair entry (LTB's pre-filtered ones): the id of one that would match g, else -1. */
  extraB?(g: number): number;
  /** The don't-care GT that swallowed I prediction p (for `error_with`). */
  swallowedBy?(p: number): number;
  /** The case's id of prediction p (LTB: kept position → input index). Defaults to p. */
  predId?(p: number): number;
}

export interface ErrorResult {
  /** Per GT: index into FN_CLASSES, -1 when not an FN. */
  fn: Int8Array;
  /** Per prediction: index into FP_CLASSES, -1 when not an FP. */
  fp: Int8Array;
  /** Filled when asked for: the instances behind each class (case ids). */
  fnWith?: (ErrorWith | undefined)[];
  fpWith?: (ErrorWith | undefined)[];
}

const COVER = 0.5;
const NEAR = 0.1;

// Growable scratch, shared by every call (classifyImage is not re-entrant).
let cover = new Int32Array(64);
let coverBy = new Int32Array(64);
let mark = new Int32Array(64);
let seen = new Int32Array(64);
let matchOf = new Int32Array(64);
let bestIoU = new Float64Array(64);
let bestG = new Int32Array(64);
function fit(nPred: number): void {
  if (cover.length < nPred) {
    const n = nPred * 2;
    bestIoU = new Float64Array(n);
    bestG = new Int32Array(n);
    cover = new Int32Array(n);
    coverBy = new Int32Array(n);
    mark = new Int32Array(n);
    seen = new Int32Array(n);
    matchOf = new Int32Array(n);
  }
}

/**
 * Classes every FN and FP of the image. `withs` also names the instances behind each class
 * (the case view); the report's counts need only the classes.
 */
export function classifyImage(im: ErrorImage, rules: ErrorRules, withs = false, out?: ErrorResult): ErrorResult {
  const { nGt, nPred, care, role, gStart, pp, piou, gArea, pArea, gtPartner, predPartner } = im;
  const res: ErrorResult = out ?? { fn: new Int8Array(nGt), fp: new Int8Array(nPred) };
  res.fn.fill(-1, 0, nGt);
  res.fp.fill(-1, 0, nPred);
  res.fnWith = withs ? new Array<ErrorWith | undefined>(nGt).fill(undefined) : undefined;
  res.fpWith = withs ? new Array<ErrorWith | undefined>(nPred).fill(undefined) : undefined;
  fit(nPred);
  // No closures made per call: this runs once per image and split (300,000 times on a large LTB set).
  const text = rules.textEqual;
  const T = rules.iou;
  const strict = rules.strict;

  // How many care GTs each prediction taking part covers (inside(g, p) ≥ 0.5), and one of them.
  cover.fill(0, 0, nPred);
  let hits = 0;
  let anyFn = false;
  for (let g = 0; g < nGt; g++) {
    if (!care[g]) continue;
    if (gtPartner[g] >= 0) hits++;
    else anyFn = true;
    for (let q = gStart[g]; q < gStart[g + 1]; q++) {
      const p = pp[q];
      if (role[p] === ROLE_P && gArea[g] > 0 && interOf(im, q, g, p) / gArea[g] >= COVER) {
        if (cover[p]++ === 0) coverBy[p] = g;
      }
    }
  }

  let maxPairs = -1;
  const parts: number[] = [];
  // The pairs of each prediction, made on the first `merge` that names its GTs.
  const byPred: PairsByPred = { start: null, q: null };
  if (anyFn) {
    for (let g = 0; g < nGt; g++) {
      if (!care[g] || gtPartner[g] >= 0) continue;
      // 1. split: ≥ 2 predictions mostly inside it whose union would match it.
      parts.length = 0;
      let interSum = 0;
      for (let q = gStart[g]; q < gStart[g + 1]; q++) {
        const p = pp[q];
        if (role[p] === ROLE_P && pArea[p] > 0 && interOf(im, q, g, p) / pArea[p] >= COVER) {
          parts.push(p);
          interSum += interOf(im, q, g, p);
        }
      }
      // IoU(union, g) ≤ area(union ∩ g) / area(g) ≤ Σ inter / area(g): skip the union when even that cannot match.
      if (parts.length >= 2 && gArea[g] > 0 && passes(Math.min(1, interSum / gArea[g]), T, strict) && passes(rules.unionIoU(g, parts), T, strict)) {
        res.fn[g] = FN.split;
        if (withs) res.fnWith![g] = { pred: parts.map((p) => idOf(rules, p)) };
        continue;
      }
      // 2. order (first fit only): a prediction that would match went to another GT, and a maximum matching has more pairs.
      let orderP = -1;
      let mergeP = -1;
      let recogP = -1;
      let dcP = -1;
      let scoreP = -1;
      let best = 0;
      let bestP = -1;
      for (let q = gStart[g]; q < gStart[g + 1]; q++) {
        const p = pp[q];
        const r = role[p];
        const iou = piou[q];
        if (r === ROLE_P) {
          if (iou > best) {
            best = iou;
            bestP = p;
          }
          if (orderP < 0 && predPartner[p] >= 0 && (strict ? iou > T : iou >= T) && (!text || text(g, p))) orderP = p;
          if (mergeP < 0 && cover[p] >= 2 && gArea[g] > 0 && interOf(im, q, g, p) / gArea[g] >= COVER) mergeP = p;
          if (recogP < 0 && text && (strict ? iou > T : iou >= T) && !text(g, p)) recogP = p;
        } else if (r === ROLE_I) {
          if (dcP < 0 && (strict ? iou > T : iou >= T) && (!text || text(g, p))) dcP = p;
        } else if (r === ROLE_B) {
          if (scoreP < 0 && (strict ? iou > T : iou >= T) && (!text || text(g, p))) scoreP = p;
        }
      }
      if (orderP >= 0 && rules.order) {
        if (maxPairs < 0) maxPairs = maximumMatching(im, rules);
        if (maxPairs > hits) {
          res.fn[g] = FN.order;
          if (withs) res.fnWith![g] = { pred: [idOf(rules, orderP)], gt: [predPartner[orderP]] };
          continue;
        }
      }
      // 3. merge: a prediction covers it and at least one other care GT.
      if (mergeP >= 0) {
        res.fn[g] = FN.merge;
        if (withs) res.fnWith![g] = { pred: [idOf(rules, mergeP)], gt: coveredBy(im, mergeP, g, byPred) };
        continue;
      }
      // 4. recognition: the box would match, the text differs.
      if (recogP >= 0) {
        res.fn[g] = FN.recognition;
        if (withs) res.fnWith![g] = { pred: [idOf(rules, recogP)] };
        continue;
      }
      // 5. dontcare: an ignored prediction would match it.
      if (dcP >= 0) {
        res.fn[g] = FN.dontcare;
        if (withs) {
          const dc = rules.swallowedBy ? rules.swallowedBy(dcP) : -1;
          res.fnWith![g] = dc >= 0 ? { pred: [idOf(rules, dcP)], gt: [dc] } : { pred: [idOf(rules, dcP)] };
        }
        continue;
      }
      // 6. score: a prediction under the threshold or the pre-filter would match it.
      if (scoreP < 0 && rules.extraB) {
        const k = rules.extraB(g);
        if (k >= 0) {
          res.fn[g] = FN.score;
          if (withs) res.fnWith![g] = { pred: [k] };
          continue;
        }
      }
      if (scoreP >= 0) {
        res.fn[g] = FN.score;
        if (withs) res.fnWith![g] = { pred: [idOf(rules, scoreP)] };
        continue;
      }
      // 7. localization / 8. missed, on the best IoU with a prediction taking part.
      if (best >= NEAR) {
        res.fn[g] = FN.localization;
        if (withs) res.fnWith![g] = { pred: [idOf(rules, bestP)] };
      } else res.fn[g] = FN.missed;
    }
  }

  // False positives: gather, per prediction, the first GT each rule names (GT order).
  let anyFp = false;
  for (let p = 0; p < nPred; p++) {
    mark[p] = -1;
    if (role[p] === ROLE_P && predPartner[p] < 0) anyFp = true;
  }
  if (!anyFp) return res;
  const dupG = seen; // reuse: per prediction, first matched GT it would match
  const splitG = matchOf; // per prediction, the split FN it is a part of
  dupG.fill(-1, 0, nPred);
  splitG.fill(-1, 0, nPred);
  const recogG = mark;
  bestIoU.fill(0, 0, nPred);
  bestG.fill(-1, 0, nPred);
  for (let g = 0; g < nGt; g++) {
    if (!care[g]) continue;
    const matched = gtPartner[g] >= 0;
    const isSplit = res.fn[g] === FN.split;
    for (let q = gStart[g]; q < gStart[g + 1]; q++) {
      const p = pp[q];
      if (role[p] !== ROLE_P || predPartner[p] >= 0) continue;
      const iou = piou[q];
      if (iou > bestIoU[p]) {
        bestIoU[p] = iou;
        bestG[p] = g;
      }
      if (dupG[p] < 0 && matched && (strict ? iou > T : iou >= T) && (!text || text(g, p))) dupG[p] = g;
      if (splitG[p] < 0 && isSplit && pArea[p] > 0 && interOf(im, q, g, p) / pArea[p] >= COVER) splitG[p] = g;
      if (recogG[p] < 0 && text && (strict ? iou > T : iou >= T) && !text(g, p)) recogG[p] = g;
    }
  }
  for (let p = 0; p < nPred; p++) {
    if (role[p] !== ROLE_P || predPartner[p] >= 0) continue;
    let c: number;
    let w: ErrorWith | undefined;
    if (dupG[p] >= 0) {
      c = FP.duplicate;
      if (withs) w = { gt: [dupG[p]], pred: [idOf(rules, gtPartner[dupG[p]])] };
    } else if (splitG[p] >= 0) {
      c = FP.split;
      if (withs) w = { gt: [splitG[p]], pred: siblings(res.fnWith![splitG[p]]?.pred ?? [], idOf(rules, p)) };
    } else if (cover[p] >= 2) {
      c = FP.merge;
      if (withs) w = { gt: coveredBy(im, p, -1, byPred) };
    } else if (recogG[p] >= 0) {
      c = FP.recognition;
      if (withs) w = { gt: [recogG[p]] };
    } else if (bestIoU[p] >= NEAR) {
      c = FP.localization;
      if (withs) w = { gt: [bestG[p]] };
    } else c = FP.background;
    res.fp[p] = c;
    if (withs && w) res.fpWith![p] = w;
  }
  return res;
}

function interOf(im: ErrorImage, q: number, g: number, p: number): number {
  if (im.pinter) return im.pinter[q];
  const iou = im.piou[q];
  return (iou * (im.gArea[g] + im.pArea[p])) / (1 + iou);
}

function passes(x: number, t: number, strict: boolean): boolean {
  return strict ? x > t : x >= t;
}

function wouldMatch(rules: ErrorRules, g: number, p: number, iou: number): boolean {
  return passes(iou, rules.iou, rules.strict) && (!rules.textEqual || rules.textEqual(g, p));
}

function idOf(rules: ErrorRules, p: number): number {
  return rules.predId ? rules.predId(p) : p;
}

/**
 * The siblings a `split` part names: the other parts of its GT, at most SIBLINGS_MAX of them.
 * Listing them all costs parts² ids (a page of 300,000 overlapping boxes has splits of 30,000
 * parts); the GT's own FN lists every part.
 */
export const SIBLINGS_MAX = 16;
function siblings(all: readonly number[], self: number): number[] {
  const out: number[] = [];
  for (const k of all) {
    if (k === self) continue;
    if (out.length === SIBLINGS_MAX) break;
    out.push(k);
  }
  return out;
}

/** The pair entries q of each prediction (GT order), CSR: start[p]..start[p+1] in q. */
interface PairsByPred {
  start: Int32Array | null;
  q: Int32Array | null;
}

function pairsByPred(im: ErrorImage, idx: PairsByPred): { start: Int32Array; q: Int32Array } {
  if (idx.start && idx.q) return { start: idx.start, q: idx.q };
  const nPairs = im.gStart[im.nGt];
  const start = new Int32Array(im.nPred + 1);
  for (let q = 0; q < nPairs; q++) start[im.pp[q] + 1]++;
  for (let p = 0; p < im.nPred; p++) start[p + 1] += start[p];
  const fillAt = start.slice(0, im.nPred);
  const qs = new Int32Array(nPairs);
  // GT-major input, so each prediction's entries come out in GT order.
  for (let q = 0; q < nPairs; q++) qs[fillAt[im.pp[q]]++] = q;
  idx.start = start;
  idx.q = qs;
  return { start, q: qs };
}

/** GT of pair entry q (gStart is sorted: a binary search). */
function gtOfPair(im: ErrorImage, q: number): number {
  let lo = 0;
  let hi = im.nGt - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (im.gStart[mid] <= q) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Care GTs that prediction p covers (inside(g, p) ≥ 0.5), without `except`, in GT order. */
function coveredBy(im: ErrorImage, p: number, except: number, idx: PairsByPred): number[] {
  const out: number[] = [];
  const { start, q: qs } = pairsByPred(im, idx);
  let last = -1;
  for (let k = start[p]; k < start[p + 1]; k++) {
    const q = qs[k];
    const g = gtOfPair(im, q);
    // One entry per GT counts (the first, as the GT-major scan found it).
    if (g === last) continue;
    if (!im.care[g] || g === except || !(im.gArea[g] > 0)) continue;
    if (interOf(im, q, g, p) / im.gArea[g] >= COVER) {
      out.push(g);
      last = g;
    }
  }
  return out;
}

/** Size of a maximum bipartite matching of care GTs and predictions taking part under the pair rule (Kuhn's augmenting paths). */
function maximumMatching(im: ErrorImage, rules: ErrorRules): number {
  matchOf.fill(-1, 0, im.nPred);
  seen.fill(-1, 0, im.nPred);
  let n = 0;
  for (let g = 0; g < im.nGt; g++) if (im.care[g] && augment(im, g, g, rules)) n++;
  return n;
}

function augment(im: ErrorImage, g: number, stamp: number, rules: ErrorRules): boolean {
  for (let q = im.gStart[g]; q < im.gStart[g + 1]; q++) {
    const p = im.pp[q];
    if (im.role[p] !== ROLE_P || seen[p] === stamp || !wouldMatch(rules, g, p, im.piou[q])) continue;
    seen[p] = stamp;
    if (matchOf[p] < 0 || augment(im, matchOf[p], stamp, rules)) {
      matchOf[p] = g;
      return true;
    }
  }
  return false;
}

/** Adds the image's classes to per-class counts (Float64Array of FN_CLASSES / FP_CLASSES length). */
export function addCounts(im: ErrorImage, res: ErrorResult, fn: Float64Array, fp: Float64Array): void {
  for (let g = 0; g < im.nGt; g++) if (res.fn[g] >= 0) fn[res.fn[g]]++;
  for (let p = 0; p < im.nPred; p++) if (res.fp[p] >= 0) fp[res.fp[p]]++;
}
