/**
 * The error taxonomy (errors.md) on Chronicles-OCR spotting: per row, the judged items in the
 * 0–1000 space, UNK left out on both sides (they have no class), "would match" = the official
 * pair rule (IoU ≥ 0.75 and the same character), `recognition` = the box matches, the character
 * differs. Units: `<script>/spotting` and `all/spotting`. The official value is a mean of per-row
 * F1s (per script, then over scripts), so dHmean is that same mean over the rows' own deltas.
 */
import { applyClasses, classifyBoxes } from '../../errors/boxes';
import { addCounts, ROLE_NONE, ROLE_P } from '../../errors/classify';
import { addCaseDeltas, newCaseMean, newTally, unitErrors, DH_KEYS, type CaseMean, type UnitTally } from '../../errors/units';
import { FN_CLASSES, type CaseRecord, type UnitErrors } from '../../model';
import { IOU_THRESHOLD } from './constants';
import { f1, isUnkChar, type SpottingJudgement } from './judge';

const rowF1 = (hits: number, gt: number, pred: number) => f1(hits, pred - hits, gt - hits);
const MISSED = FN_CLASSES.indexOf('missed');

export class ChroniclesErrors {
  private readonly units = new Map<string, { tally: UnitTally; mean: CaseMean }>();

  /** Classes one spotting case (judged or not); its per-slot counts go to `counts` at `at` (ERROR_SLOTS order). */
  add(script: string, c: CaseRecord, j: SpottingJudgement | undefined, counts: Uint16Array, at: number): void {
    if (j) {
      const gts = j.gts1000;
      const care = Uint8Array.from(gts, (g) => (isUnkChar(g.char) ? 0 : 1));
      const role = Uint8Array.from(j.preds, (p) => (isUnkChar(p.char) ? ROLE_NONE : ROLE_P));
      const gtPartner = new Int32Array(gts.length).fill(-1);
      const predPartner = new Int32Array(j.preds.length).fill(-1);
      for (const p of j.spotMatch.pairs) {
        const g = j.spotGtIndex[p.gt];
        const q = j.spotPredIndex[p.pred];
        gtPartner[g] = q;
        predPartner[q] = g;
      }
      const { im, res } = classifyBoxes(
        { gt: gts.map((g) => g.bbox), pred: j.preds.map((p) => p.bbox), gtPartner, predPartner, care, role },
        IOU_THRESHOLD,
        false,
        true,
        (g, q) => gts[g].char === j.preds[q].char,
      );
      // Instance ids of predictions are their places in the stored list: map judged → stored.
      const ids = j.predIndex;
      const fpById = new Int8Array(c.pred.length).fill(-1);
      const fpWith: typeof res.fpWith = new Array(c.pred.length).fill(undefined);
      const mapWith = (w: { gt?: number[]; pred?: number[] } | undefined) => (w && w.pred ? { ...w, pred: w.pred.map((q) => ids[q]) } : w);
      j.preds.forEach((_, q) => {
        fpById[ids[q]] = res.fp[q];
        fpWith[ids[q]] = mapWith(res.fpWith?.[q]);
      });
      const fnWith = res.fnWith?.map(mapWith);
      applyClasses({ fn: res.fn, fp: fpById, fnWith, fpWith }, c.gt, c.pred, counts, at);
      let u = this.units.get(script);
      if (!u) this.units.set(script, (u = { tally: newTally(null), mean: newCaseMean() }));
      const fn = new Float64Array(FN_CLASSES.length);
      const fp = new Float64Array(u.tally.fp.length);
      addCounts(im, res, fn, fp);
      for (let k = 0; k < fn.length; k++) u.tally.fn[k] += fn[k];
      for (let k = 0; k < fp.length; k++) u.tally.fp[k] += fp[k];
      u.tally.gt += j.spotting.tp + j.spotting.fn;
      u.tally.pred += j.spotting.tp + j.spotting.fp;
      u.tally.hits += j.spotting.tp;
      addCaseDeltas(u.mean.sum, rowF1, j.spotting.tp, j.spotting.tp + j.spotting.fn, j.spotting.tp + j.spotting.fp, fn, fp);
      u.mean.cases++;
    }
    // A GT the judge never saw (row not judged, or no width/height): nothing to match, `missed`;
    // it is outside the metric, so it counts in the case, not in a unit.
    for (const g of c.gt) {
      if (g.state === 'fn' && !g.error) {
        g.error = 'missed';
        if (counts[at + MISSED] < 65535) counts[at + MISSED]++;
      }
    }
  }

  /** report `diagnostics.errors`: the scripts whose `<script>/spotting` metric exists, and `all/spotting`. */
  errors(metrics: Record<string, number>): Record<string, UnitErrors> {
    const out: Record<string, UnitErrors> = {};
    const all = newTally(null);
    const allMean = newCaseMean();
    for (const [script, u] of this.units) {
      const key = `${script}/spotting`;
      if (metrics[key] === undefined) continue;
      out[key] = unitErrors(u.tally, rowF1, u.mean);
      all.gt += u.tally.gt;
      all.pred += u.tally.pred;
      all.hits += u.tally.hits;
      for (let k = 0; k < all.fn.length; k++) all.fn[k] += u.tally.fn[k];
      for (let k = 0; k < all.fp.length; k++) all.fp[k] += u.tally.fp[k];
      // all/spotting is the mean of the per-script means: each script's mean delta, weighted alike.
      for (let k = 0; k < DH_KEYS.length; k++) allMean.sum[k] += u.mean.cases > 0 ? u.mean.sum[k] / u.mean.cases : 0;
      allMean.cases++;
    }
    if (allMean.cases > 0 && metrics['all/spotting'] !== undefined) out['all/spotting'] = unitErrors(all, rowF1, allMean);
    return out;
  }
}
