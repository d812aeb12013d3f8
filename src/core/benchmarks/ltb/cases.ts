/**
 * The per-image case record for one split at one threshold: every GT (tp / fn / dontcare, with
 * its best IoU and challenge tags), every prediction (tp / fp / ignored by a don't-care region /
 * below the threshold) with a sentence saying why, and the first-fit pairs. A maximum bipartite
 * matching is computed alongside as a diagnostic only.
 *
 * Built for 20,000 images at a time: scratch arrays are reused and tag lists are shared, so a
 * case costs little more than its own instance objects. A model with millions of predictions
 * (a dense detector's 1 GB JSONL) would still need gigabytes for its prediction instances alone,
 * so above `ON_DEMAND.predictions` its cases keep only their counts and rebuild `pred` when read.
 */
import { dirname } from '../../io/fileSource';
import type { CaseRecord, FacetValue, Instance, Match, Outcome } from '../../model';
import type { LtbImage } from './dataset';
import type { ImageGeom } from './imageGeometry';
import type { Variant } from './protocol';
import { predPolygon, type LtbPredImage } from './readPredictions';
import { SPLITS, tagsOfMask, thresholdLabel } from './splits';
import { careInOrder, rates } from './splitCounts';
import { ltbErrorsFor } from './errors';
import { FN_CLASSES, FP_CLASSES, type BackgroundFp } from '../../model';
import { SUSPECT_SCORE } from '../../errors/suspects';

function f2(x: number): string {
  return x.toFixed(2);
}

/**
 * A score for a "below the threshold" sentence: three decimals (cheap), or every digit when the
 * rounding would print it at or above the threshold it is below.
 */
function fScore(x: number, below = Infinity): string {
  const t = x.toFixed(3);
  return Number(t) >= below ? String(x) : t;
}

/** Shared, read-only tag lists per mask (a mask has at most a handful of distinct values). */
const TAGS = new Map<number, string[]>();
function tagsOf(mask: number): string[] {
  let t = TAGS.get(mask);
  if (!t) TAGS.set(mask, (t = tagsOfMask(mask)));
  return t;
}

/** Growable scratch arrays, shared by all cases (buildCase is not re-entrant). */
const S = {
  i32: [] as Int32Array[],
  f64: [] as Float64Array[],
};
function i32(slot: number, n: number, fill: number): Int32Array {
  let a = S.i32[slot];
  if (!a || a.length < n) a = S.i32[slot] = new Int32Array(Math.max(n, 64) * 2);
  a.fill(fill, 0, n);
  return a;
}
function f64(slot: number, n: number): Float64Array {
  let a = S.f64[slot];
  if (!a || a.length < n) a = S.f64[slot] = new Float64Array(Math.max(n, 64) * 2);
  a.fill(0, 0, n);
  return a;
}

/** Predictions of one model above which prediction instances are built on demand (tests lower it). */
// An eager prediction instance costs ~470 bytes of heap (object, shape, points, reason): 500,000 is
// ~240 MB per model.
export const ON_DEMAND = { predictions: 500_000 };

export function predInstancesOnDemand(predictions: number): boolean {
  return predictions > ON_DEMAND.predictions;
}

/** The last prediction lists built on demand, so a viewer reading one case twice builds it once. */
const recent = new Map<CaseRecord, Instance[]>();
const RECENT = 16;

export function buildCase(
  img: LtbImage,
  preds: LtbPredImage | undefined,
  geom: ImageGeom,
  v: Variant,
  s: number,
  ti: number,
  splitFile: string,
  onDemand = false,
  /** Class every FN / FP (errors.md); null skips it. */
  tx: CaseTaxonomy | null = {},
): CaseRecord {
  const taxonomy = tx !== null;
  const bit = 1 << s;
  const thr = v.iou;
  const nGt = img.gt.length;
  const nK = geom.kept.length;
  const nPred = preds ? preds.scores.length : 0;
  const { gStart, pk, piou, pratio, level, careM, dcM, kept } = geom;

  const errors: string[] = [];
  if (img.imageFile === null) errors.push('image_missing');
  if (!preds) errors.push('no_predictions');

  // Don't-care filter: the first don't-care GT in file order that covers > 50% of the prediction.
  const swallowedBy = i32(0, nK, -1);
  const swallowShare = f64(0, nK);
  const order = img.order?.[s];
  const nOrd = order ? order.length : nGt;
  for (let o = 0; o < nOrd; o++) {
    const g = order ? order[o] : o;
    if (!(dcM[g] & bit)) continue;
    for (let p = gStart[g]; p < gStart[g + 1]; p++) {
      const k = pk[p];
      if (pratio[p] > 0.5 && swallowedBy[k] < 0) {
        swallowedBy[k] = g;
        swallowShare[k] = pratio[p];
      }
    }
  }

  // First-fit matching (the official one), best IoUs, and matches a lower threshold would allow.
  const care = i32(1, nGt, 0);
  const nCare = careInOrder(img, geom, s, care);
  const gtPartner = i32(2, nGt, -1);
  const predPartner = i32(3, nK, -1);
  const gtBestPred = i32(4, nGt, -1);
  const predBestGt = i32(5, nK, -1);
  const gtBelowMatch = i32(6, nGt, -1);
  const gtBest = f64(1, nGt);
  const predBest = f64(2, nK);
  const matches: Match[] = [];
  for (let c = 0; c < nCare; c++) {
    const g = care[c];
    for (let p = gStart[g]; p < gStart[g + 1]; p++) {
      const k = pk[p];
      const iou = piou[p];
      const takesPart = level[k] > ti && swallowedBy[k] < 0;
      if (takesPart && iou > gtBest[g]) {
        gtBest[g] = iou;
        gtBestPred[g] = k;
      }
      if (iou > predBest[k]) {
        predBest[k] = iou;
        predBestGt[k] = g;
      }
      if (level[k] <= ti && iou > thr && gtBelowMatch[g] < 0) gtBelowMatch[g] = k;
      if (gtPartner[g] < 0 && takesPart && iou > thr && predPartner[k] < 0) {
        predPartner[k] = g;
        gtPartner[g] = k;
        matches.push({ gt: g, pred: kept[k], iou });
      }
    }
  }
  const maxHits = maxMatching(care, nCare, geom, thr, ti, swallowedBy);
  let cls: ReturnType<LtbErrorsT['classify']> | null = null;
  // An image the split file does not list is a skipped case: the metric does not count it, so no classes.
  if (taxonomy && img.splits & bit) {
    const e = ltbErrorsFor(v);
    e.begin(img, preds, geom);
    cls = e.classify(s, ti, true, swallowedBy);
  }

  const challenge = new Set<string>();
  const missed = new Set<string>();
  let fn = 0;
  const gt: Instance[] = new Array(nGt);
  for (let id = 0; id < nGt; id++) {
    const g = img.gt[id];
    const tags = tagsOf(g.tags);
    // Every field in the literal (undefined when absent, which JSON drops): one object shape for
    // all instances, no property-array growth — this loop runs a million times on a large set.
    const inst: Instance = { id, shape: (g.shape ??= { type: 'polygon', points: g.points }), state: 'info' };
    if (g.text !== undefined) inst.text = g.text;
    if (tags.length) {
      inst.tags = tags;
      for (const t of tags) challenge.add(t);
    }
    if (v.cocoDrops && g.drop063) {
      inst.reason = `dropped by the MMOCR 0.6.3 COCO loader (${g.drop063})`;
    } else if (!(g.present & bit)) {
      inst.reason = `not listed in ${splitFile}`;
    } else if (!(careM[id] & bit)) {
      inst.state = 'dontcare';
    } else if (gtPartner[id] >= 0) {
      inst.state = 'tp';
      inst.partner = kept[gtPartner[id]];
      inst.iou = pairIoU(geom, id, gtPartner[id]);
      inst.best_iou = gtBest[id];
    } else {
      inst.state = 'fn';
      fn++;
      for (const t of tags) missed.add(t);
      inst.best_iou = gtBest[id];
      inst.reason = fnReason(geom, gtBestPred[id], gtBest[id], predPartner, gtBelowMatch[id], preds, thr);
      if (cls && cls.fn[id] >= 0) {
        inst.error = FN_CLASSES[cls.fn[id]];
        const w = cls.fnWith![id];
        if (w) inst.error_with = w;
        if (tx!.counts) bump(tx!.counts, tx!.at! + cls.fn[id]);
        if (tx!.tally) tx!.tally.fn[cls.fn[id]]++;
        if (tx!.missed && cls.fn[id] === MISSED) tx!.missed.push(tx!.caseIndex!, id);
      }
    }
    gt[id] = inst;
  }

  const posOf = i32(7, nPred, -1);
  for (let j = 0; j < nK; j++) posOf[kept[j]] = j;
  const tValue = v.thresholds[ti];
  const tLabel = labelOf(tValue);
  let fp = 0;
  let ignored = 0;
  let below = 0;
  let predCount = 0;
  const pred: Instance[] = onDemand ? [] : new Array(nPred);
  for (let k = 0; k < nPred; k++) {
    const score = preds!.scores[k];
    // On demand, the loop only counts: the instance is not kept, so it needs no shape.
    const inst: Instance = onDemand
      ? { id: k, score, state: 'below_threshold' }
      : { id: k, shape: { type: 'polygon', points: predPolygon(preds!, k) }, score, state: 'below_threshold' };
    const j = posOf[k];
    if (j < 0) {
      below++;
      inst.reason = v.sweep
        ? `score ${fScore(score, 0.3)} is under the pre-filter (${v.name === 'mmocr-1.0.1' ? 'float32 score < 0.3' : 'score ≤ 0.3'})`
        : v.name === 'mmocr-1.0.1'
          ? `score ${fScore(score, tValue)} < threshold ${tLabel}`
          : `score ${fScore(score, tValue)} ≤ threshold ${tLabel} (mmocr-0.6.3 keeps score > min_score_thr)`;
    } else {
      if (predBestGt[j] >= 0) inst.best_iou = predBest[j];
      if (level[j] <= ti) {
        below++;
        inst.reason = `score ${fScore(score, tValue)} < threshold ${tLabel}`;
      } else if (swallowedBy[j] >= 0) {
        ignored++;
        inst.state = 'ignored';
        inst.reason = `${(swallowShare[j] * 100).toFixed(1)}% of its area lies in don't-care GT ${swallowedBy[j]} (> 50%)`;
        inst.attrs = { dontcare_gt: swallowedBy[j], dontcare_share: swallowShare[j] };
      } else if (predPartner[j] >= 0) {
        predCount++;
        inst.state = 'tp';
        inst.partner = predPartner[j];
        inst.iou = pairIoU(geom, predPartner[j], j);
      } else {
        predCount++;
        fp++;
        inst.state = 'fp';
        const bg = predBestGt[j];
        if (bg < 0) inst.reason = 'no overlap with any care GT';
        else if (predBest[j] <= thr) inst.reason = `best IoU ${f2(predBest[j])} ≤ ${thr} (with GT ${bg})`;
        else inst.reason = fpTakenReason(geom, j, care, nCare, gtPartner, thr);
        if (cls && cls.fp[j] >= 0) {
          inst.error = FP_CLASSES[cls.fp[j]];
          const w = cls.fpWith![j];
          if (w) inst.error_with = w;
          if (tx!.counts) bump(tx!.counts, tx!.at! + FN_CLASSES.length + cls.fp[j]);
          if (tx!.tally) tx!.tally.fp[cls.fp[j]]++;
          if (tx!.background && cls.fp[j] === BACKGROUND && !(score < SUSPECT_SCORE)) {
            tx!.background.push({ case: tx!.caseIndex!, pred: k, score, shape: { type: 'polygon', points: predPolygon(preds!, k) } });
          }
        }
      }
    }
    if (!onDemand) pred[k] = inst;
  }

  const hits = matches.length;
  const r = rates(hits, nCare, predCount);
  let outcome: Outcome = fn === 0 && fp === 0 ? 'pass' : hits === 0 ? 'fail' : 'partial';
  if (!(img.splits & bit)) {
    outcome = 'skipped';
    errors.push('not_in_split');
  }
  let careAny = 0;
  for (let g = 0; g < nGt; g++) careAny |= careM[g];
  const facets: Record<string, FacetValue> = {
    challenge: challenge.size ? [...challenge].sort() : [],
    missed: missed.size ? [...missed].sort() : [],
    splits: splitsOf(careAny),
    source: dirname(img.imageFile ?? img.imgPath) || '.',
    has_care_gt: nCare > 0,
  };
  const rec: CaseRecord = {
    case_id: img.name,
    image_path: img.imgPath,
    image_file: img.imageFile,
    facets,
    score: outcome === 'skipped' ? null : r.hmean,
    outcome,
    gt,
    pred,
    matches,
    errors,
    detail: {
      split: SPLITS[s].key,
      threshold: v.thresholds[ti],
      hits,
      gt: nCare,
      pred: predCount,
      ignored,
      fp,
      fn,
      below_threshold: below,
      precision: r.precision,
      recall: r.recall,
      max_matching_hits: maxHits,
      repaired_polygons: geom.repairedGt + geom.repairedPred,
    },
  };
  if (img.width !== undefined) rec.width = img.width;
  if (img.height !== undefined) rec.height = img.height;
  if (onDemand) {
    // Same place in the key order as a plain `pred`, so case lines read the same either way.
    Object.defineProperty(rec, 'pred', {
      enumerable: true,
      configurable: true,
      get(): Instance[] {
        let list = recent.get(rec);
        if (!list) {
          list = buildCase(img, preds, geom, v, s, ti, splitFile, false, taxonomy ? {} : null).pred;
          if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
          recent.set(rec, list);
        }
        return list;
      },
    });
  }
  return rec;
}

type LtbErrorsT = ReturnType<typeof ltbErrorsFor>;

/** Where a case's error classes go besides its instances: per-slot counts (ERROR_SLOTS) and the suspects' inputs. */
export interface CaseTaxonomy {
  counts?: Uint16Array;
  /** Offset of this case's slots in `counts`. */
  at?: number;
  caseIndex?: number;
  background?: BackgroundFp[];
  missed?: number[];
  /** The case split's unit counts (exact, not saturating). */
  tally?: { fn: Float64Array; fp: Float64Array };
}
const MISSED = FN_CLASSES.indexOf('missed');
const BACKGROUND = FP_CLASSES.indexOf('background');

function bump(a: Uint16Array, i: number): void {
  if (a[i] < 65535) a[i]++;
}

const LABELS = new Map<number, string>();
function labelOf(t: number): string {
  let l = LABELS.get(t);
  if (l === undefined) LABELS.set(t, (l = thresholdLabel(t)));
  return l;
}

const SPLITS_OF = new Map<number, string[]>();
/** Split keys of a mask (shared lists). */
function splitsOf(mask: number): string[] {
  let l = SPLITS_OF.get(mask);
  if (!l) {
    l = SPLITS.filter((_, i) => mask & (1 << i)).map((x) => x.key);
    SPLITS_OF.set(mask, l);
  }
  return l;
}

function pairIoU(geom: ImageGeom, g: number, k: number): number {
  for (let p = geom.gStart[g]; p < geom.gStart[g + 1]; p++) if (geom.pk[p] === k) return geom.piou[p];
  return 0;
}

function fnReason(
  geom: ImageGeom,
  bestK: number,
  best: number,
  predPartner: Int32Array,
  belowK: number,
  preds: LtbPredImage | undefined,
  thr: number,
): string {
  let why: string;
  if (bestK < 0) why = 'no prediction taking part overlaps it';
  else if (best <= thr) why = `best IoU ${f2(best)} ≤ ${thr} (prediction ${geom.kept[bestK]})`;
  else why = `IoU ${f2(best)} with prediction ${geom.kept[bestK]}, which first-fit matching gave to GT ${predPartner[bestK]} first`;
  if (belowK >= 0 && preds) {
    const k = geom.kept[belowK];
    why += `; prediction ${k} (score ${fScore(preds.scores[k])}) would match but is below the threshold`;
  }
  return why;
}

function fpTakenReason(geom: ImageGeom, j: number, care: Int32Array, nCare: number, gtPartner: Int32Array, thr: number): string {
  for (let c = 0; c < nCare; c++) {
    const g = care[c];
    for (let p = geom.gStart[g]; p < geom.gStart[g + 1]; p++) {
      if (geom.pk[p] === j && geom.piou[p] > thr && gtPartner[g] >= 0) {
        return `IoU ${f2(geom.piou[p])} with GT ${g}, but first-fit matching gave GT ${g} to prediction ${geom.kept[gtPartner[g]]}`;
      }
    }
  }
  return `no free care GT with IoU > ${thr}`;
}

/** Size of a maximum bipartite matching on IoU > thr (Kuhn's augmenting paths; graphs are tiny). */
function maxMatching(care: Int32Array, nCare: number, geom: ImageGeom, thr: number, ti: number, swallowedBy: Int32Array): number {
  const nK = geom.kept.length;
  if (nCare === 0 || nK === 0) return 0;
  const matchOfPred = i32(8, nK, -1);
  const seen = i32(9, nK, -1);
  let n = 0;
  for (let c = 0; c < nCare; c++) if (augment(care[c], c, geom, thr, ti, swallowedBy, matchOfPred, seen)) n++;
  return n;
}

function augment(
  g: number,
  stamp: number,
  geom: ImageGeom,
  thr: number,
  ti: number,
  swallowedBy: Int32Array,
  matchOfPred: Int32Array,
  seen: Int32Array,
): boolean {
  for (let p = geom.gStart[g]; p < geom.gStart[g + 1]; p++) {
    const k = geom.pk[p];
    if (!(geom.piou[p] > thr) || geom.level[k] <= ti || swallowedBy[k] >= 0 || seen[k] === stamp) continue;
    seen[k] = stamp;
    if (matchOfPred[k] < 0 || augment(matchOfPred[k], stamp, geom, thr, ti, swallowedBy, matchOfPred, seen)) {
      matchOfPred[k] = g;
      return true;
    }
  }
  return false;
}
