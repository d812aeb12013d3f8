/**
 * One image's contribution to one split at every threshold: don't-care filter, first-fit
 * matching, and the pooled counts (`hits`, `gt`, `pred`, `ignored`) of MMOCR's hmean-iou.
 */
import type { LtbImage } from './dataset';
import type { ImageGeom } from './imageGeometry';

export interface SplitTotals {
  /** Per threshold. */
  hits: Float64Array;
  pred: Float64Array;
  ignored: Float64Array;
  gt: number;
}

export function newTotals(nT: number): SplitTotals {
  return { hits: new Float64Array(nT), pred: new Float64Array(nT), ignored: new Float64Array(nT), gt: 0 };
}

/** Scratch arrays reused across images so the hot loop allocates nothing. */
export class Scratch {
  ign = new Uint8Array(64);
  used = new Uint8Array(64);
  care = new Int32Array(64);
  hist = new Float64Array(16);
  histIgn = new Float64Array(16);
  fit(nK: number, nGt: number): void {
    if (this.ign.length < nK) {
      this.ign = new Uint8Array(nK * 2);
      this.used = new Uint8Array(nK * 2);
    }
    if (this.care.length < nGt) this.care = new Int32Array(nGt * 2);
  }
}

/**
 * Marks in `ign` the kept predictions the don't-care filter drops in split `bit`: some GT that
 * is don't care there covers more than half of the prediction.
 */
export function markIgnored(geom: ImageGeom, bit: number, ign: Uint8Array): void {
  const nK = geom.kept.length;
  ign.fill(0, 0, nK);
  const { swStart, swG, dcM } = geom;
  if (swG.length === 0) return;
  for (let k = 0; k < nK; k++) {
    for (let j = swStart[k]; j < swStart[k + 1]; j++) {
      if (dcM[swG[j]] & bit) {
        ign[k] = 1;
        break;
      }
    }
  }
}

/** Care GT of split s in file order, into `out`; returns how many. */
export function careInOrder(img: LtbImage, geom: ImageGeom, s: number, out: Int32Array): number {
  const bit = 1 << s;
  const careM = geom.careM;
  const ord = img.order?.[s];
  let m = 0;
  if (ord) {
    for (let j = 0; j < ord.length; j++) if (careM[ord[j]] & bit) out[m++] = ord[j];
  } else {
    for (let g = 0; g < careM.length; g++) if (careM[g] & bit) out[m++] = g;
  }
  return m;
}

export function addImageToSplit(
  img: LtbImage,
  geom: ImageGeom,
  s: number,
  iouThr: number,
  scratch: Scratch,
  t: SplitTotals,
  unit?: UnitRow,
): void {
  const bit = 1 << s;
  const nK = geom.kept.length;
  const nT = t.hits.length;
  scratch.fit(nK, img.gt.length);
  const { ign, used, care, hist, histIgn } = scratch;
  markIgnored(geom, bit, ign);
  hist.fill(0, 0, nT + 1);
  histIgn.fill(0, 0, nT + 1);
  const level = geom.level;
  for (let k = 0; k < nK; k++) {
    if (ign[k]) histIgn[level[k]]++;
    else hist[level[k]]++;
  }
  // A prediction takes part at threshold i when its level is > i.
  let accP = 0;
  let accI = 0;
  for (let i = nT - 1; i >= 0; i--) {
    accP += hist[i + 1];
    accI += histIgn[i + 1];
    t.pred[i] += accP;
    t.ignored[i] += accI;
    if (unit) unit.rows[unit.at + 1 + nT + i] = accP;
  }
  const nCare = careInOrder(img, geom, s, care);
  t.gt += nCare;
  if (unit) unit.rows[unit.at] = nCare;
  if (nCare === 0 || geom.pk.length === 0) return;
  const { gStart, pk, piou } = geom;
  let anyCandidate = false;
  for (let c = 0; c < nCare && !anyCandidate; c++) {
    const g = care[c];
    for (let p = gStart[g]; p < gStart[g + 1]; p++) {
      if (piou[p] > iouThr && !ign[pk[p]]) {
        anyCandidate = true;
        break;
      }
    }
  }
  if (!anyCandidate) return;
  for (let i = 0; i < nT; i++) {
    used.fill(0, 0, nK);
    let hits = 0;
    // First fit: care GT in file order, each takes the first free prediction (input order) with IoU > thr.
    for (let c = 0; c < nCare; c++) {
      const g = care[c];
      for (let p = gStart[g]; p < gStart[g + 1]; p++) {
        const k = pk[p];
        if (piou[p] > iouThr && level[k] > i && !ign[k] && !used[k]) {
          used[k] = 1;
          hits++;
          break;
        }
      }
    }
    t.hits[i] += hits;
    if (unit) unit.rows[unit.at + 1 + i] = hits;
  }
}

/**
 * Where addImageToSplit writes the image's own counts for the uncertainty bootstrap: at `at`
 * the care GT, then hits per threshold, then predictions per threshold (1 + 2 · nT numbers,
 * zero-filled beforehand).
 */
export interface UnitRow {
  /** Counts: integers, so 32 bits are exact and half the memory (20,000 images × 15 splits). */
  rows: Int32Array;
  at: number;
}

/** MMOCR's `compute_hmean`: recall 1 and precision 0 / 1 when there is no care GT. */
export function rates(hits: number, gt: number, pred: number): { precision: number; recall: number; hmean: number } {
  ratesInto(hits, gt, pred, RATES, 0);
  return { precision: RATES[0], recall: RATES[1], hmean: RATES[2] };
}
/** rates' scratch (synchronous, so one suffices). */
const RATES = new Float64Array(3);

/**
 * `rates` into out[at…at+2] (precision, recall, hmean) without allocating: the uncertainty
 * bootstrap runs it for every threshold of every replicate.
 */
export function ratesInto(hits: number, gt: number, pred: number, out: Float64Array, at: number): void {
  let recall: number;
  let precision: number;
  if (gt === 0) {
    recall = 1.0;
    precision = pred > 0 ? 0.0 : 1.0;
  } else {
    recall = hits / gt;
    precision = pred === 0 ? 0.0 : hits / pred;
  }
  const denom = precision + recall;
  out[at] = precision;
  out[at + 1] = recall;
  out[at + 2] = denom === 0 ? 0.0 : (2.0 * precision * recall) / denom;
}
