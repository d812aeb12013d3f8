/**
 * MMOCR `hmean-iou` over the LTB split files, as the spec describes it: each split pooled over
 * its images at 7 thresholds, best threshold per split (ties keep the lowest). Geometry is
 * computed once per image and shared by all splits and thresholds.
 */
import type { ModelResult, LoadedPredictions, Protocol, RunContext } from '../../model';
import { buildCase, predInstancesOnDemand } from './cases';
import type { LtbDataset } from './dataset';
import { imageGeometry, type ImageGeom } from './imageGeometry';
import { ninthReading, ninthWarning, withNinthReading } from './icdarNinth';
import { variantOf } from './protocol';
import { predLength, type LtbPredictions } from './readPredictions';
import { HARD, NORM, SPLITS, thresholdLabel } from './splits';
import { addImageToSplit, newTotals, rates, Scratch, type SplitTotals, type UnitRow } from './splitCounts';
import { WarningList } from './values';
import { ltbErrorsFor } from './errors';
import { addCounts } from '../../errors/classify';
import { newTally, unitErrors, type UnitTally } from '../../errors/units';
import { ERROR_SLOTS, type BackgroundFp, type UnitErrors } from '../../model';

export interface ThresholdRow {
  threshold: number;
  hits: number;
  gt: number;
  pred: number;
  ignored: number;
  precision: number;
  recall: number;
  hmean: number;
}

export interface SplitSummary {
  key: string;
  file: string;
  best_index: number;
  per_threshold: ThresholdRow[];
}

/** The split the per-image cases show: the option, else `hard`, else `norm`, else the first loaded. */
export function caseSplitOf(ds: LtbDataset, protocol: Protocol): number {
  const want = protocol.options.case_split;
  if (typeof want === 'string') {
    const s = SPLITS.findIndex((x) => x.key === want);
    if (s >= 0 && ds.splitMask & (1 << s)) return s;
  }
  if (ds.splitMask & (1 << HARD)) return HARD;
  if (ds.splitMask & (1 << NORM)) return NORM;
  return ds.splitFiles[0]?.split ?? NORM;
}

export async function scoreLtb(
  ds: LtbDataset,
  loaded: LoadedPredictions<LtbPredictions>,
  protocol: Protocol,
  ctx?: RunContext,
): Promise<ModelResult> {
  const v = variantOf(protocol);
  const preds = withNinthReading(ds, loaded, protocol);
  const nT = v.thresholds.length;
  const splits = ds.splitFiles.map((f) => f.split);
  const totals = new Map<number, SplitTotals>(splits.map((s) => [s, newTotals(nT)]));
  const warnings = new WarningList();
  for (const w of preds.warnings) warnings.add(w);
  const ninth = ninthWarning(preds, v, ninthReading(protocol));
  if (ninth) warnings.add(ninth);
  const scratch = new Scratch();
  const geoms: ImageGeom[] = new Array(ds.images.length);
  let repaired = 0;
  const total = ds.images.length;
  // Per split, each member image's counts (in image order) for the uncertainty intervals.
  const unitWidth = 1 + 2 * nT;
  const unitRows = new Map<number, UnitRow>();
  for (const s of splits) {
    let members = 0;
    for (const img of ds.images) if (img.splits & (1 << s)) members++;
    unitRows.set(s, { rows: new Int32Array(members * unitWidth), at: 0 });
  }
  for (let i = 0; i < total; i++) {
    if ((i & 255) === 0) {
      ctx?.signal?.throwIfAborted();
      ctx?.progress?.({ phase: 'score', done: i, total, label: `${preds.model}: ${v.name}` });
    }
    const img = ds.images[i];
    const p = preds.data.images[i];
    if (v.name === 'mmocr-0.6.3' && p && p.scores.length > 0 && predLength(p, 0) < 8) {
      warnings.add(
        `${img.name}: the first prediction has ${predLength(p, 0) / 2} points; the official mmocr-0.6.3 code stops with an error here (valid_boundary needs 4), scored anyway`,
      );
    }
    const geom = imageGeometry(img, p, v);
    geoms[i] = geom;
    repaired += geom.repairedGt + geom.repairedPred;
    for (const s of splits) {
      if (!(img.splits & (1 << s))) continue;
      const unit = unitRows.get(s)!;
      addImageToSplit(img, geom, s, v.iou, scratch, totals.get(s)!, unit);
      unit.at += unitWidth;
    }
  }

  const metrics: Record<string, number> = {};
  const summaries: Record<string, SplitSummary> = {};
  const best = new Map<number, number>();
  for (const f of ds.splitFiles) {
    const t = totals.get(f.split)!;
    const rows: ThresholdRow[] = v.thresholds.map((th, i) => ({
      threshold: th,
      hits: t.hits[i],
      gt: t.gt,
      pred: t.pred[i],
      ignored: t.ignored[i],
      ...rates(t.hits[i], t.gt, t.pred[i]),
    }));
    // Strict ">" while scanning upward: ties keep the lowest threshold.
    let b = 0;
    for (let i = 1; i < rows.length; i++) if (rows[i].hmean > rows[b].hmean) b = i;
    best.set(f.split, b);
    const key = SPLITS[f.split].key;
    const r = rows[b];
    Object.assign(metrics, {
      [`${key}/precision`]: r.precision,
      [`${key}/recall`]: r.recall,
      [`${key}/hmean`]: r.hmean,
      [`${key}/threshold`]: r.threshold,
      [`${key}/hits`]: r.hits,
      [`${key}/gt`]: r.gt,
      [`${key}/pred`]: r.pred,
      [`${key}/ignored`]: r.ignored,
    });
    for (const row of rows) metrics[`${key}/hmean@${thresholdLabel(row.threshold)}`] = row.hmean;
    summaries[key] = { key, file: f.path, best_index: b, per_threshold: rows };
  }

  // The error taxonomy: every split at its best threshold, on the geometry computed above.
  const taxonomy = ctx?.diagnostics !== false;
  const errors: Record<string, UnitErrors> = {};
  let tx: { tallies: Map<number, UnitTally>; e: ReturnType<typeof ltbErrorsFor> } | null = null;
  if (taxonomy) {
    const tallies = new Map<number, UnitTally>();
    for (const f of ds.splitFiles) {
      const t = totals.get(f.split)!;
      const b = best.get(f.split)!;
      const tally = newTally(v.sweep ? v.thresholds[b] : v.thresholds[0]);
      tally.gt = t.gt;
      tally.pred = t.pred[b];
      tally.hits = t.hits[b];
      tallies.set(f.split, tally);
    }
    tx = { tallies, e: ltbErrorsFor(v) };
  }

  // Cases: one per image, for the chosen split at its best threshold.
  const cs = caseSplitOf(ds, protocol);
  // The case view's threshold: the option (one of the scored thresholds), else the split's best.
  const wantT = protocol.options.case_threshold;
  const pinned = typeof wantT === 'number' ? v.thresholds.findIndex((t) => Math.abs(t - wantT) < 1e-9) : -1;
  const ci = pinned >= 0 ? pinned : (best.get(cs) ?? 0);
  // diagnostics.errors of the case split stay at its best threshold: classed with the other
  // splits when the cases show another threshold.
  const casesAtBest = ci === (best.get(cs) ?? 0);
  const csFile = ds.splitFiles.find((f) => f.split === cs)?.path ?? '';
  let skipped = 0;
  let maxHits = 0;
  let fitHits = 0;
  const onDemand = predInstancesOnDemand(preds.counts.predictions ?? 0);
  const caseCounts = onDemand ? { misses: new Uint32Array(total), falsePositives: new Uint32Array(total) } : undefined;
  const classCounts = taxonomy ? new Uint16Array(total * ERROR_SLOTS.length) : undefined;
  const background: BackgroundFp[] = [];
  const missed: number[] = [];
  const cases = ds.images.map((img, i) => {
    if (tx) {
      // Every split of the image at its best threshold; the case below reuses the image's caches.
      const { e, tallies } = tx;
      e.begin(img, preds.data.images[i], geoms[i]);
      for (const s of splits) {
        // The case split is classed by buildCase below (with the instances behind each class).
        if (!(img.splits & (1 << s)) || (s === cs && casesAtBest)) continue;
        const t = tallies.get(s)!;
        addCounts(e.im, e.classify(s, best.get(s)!), t.fn, t.fp);
      }
    }
    const caseTx = tx
      ? { counts: classCounts, at: i * ERROR_SLOTS.length, caseIndex: i, background, missed, tally: casesAtBest && img.splits & (1 << cs) ? tx.tallies.get(cs) : undefined }
      : null;
    const c = buildCase(img, preds.data.images[i], geoms[i], v, cs, ci, csFile, onDemand, caseTx);
    if (caseCounts) {
      caseCounts.misses[i] = c.detail!.fn as number;
      caseCounts.falsePositives[i] = c.detail!.fp as number;
    }
    if (c.outcome === 'skipped') skipped++;
    maxHits += (c.detail?.max_matching_hits as number) ?? 0;
    fitHits += (c.detail?.hits as number) ?? 0;
    return c;
  });
  ctx?.progress?.({ phase: 'score', done: total, total, label: `${preds.model}: ${v.name}` });
  if (tx) for (const f of ds.splitFiles) errors[SPLITS[f.split].key] = unitErrors(tx.tallies.get(f.split)!, (h, g, p) => rates(h, g, p).hmean);

  return {
    model: preds.model,
    metrics,
    counts: {
      cases: cases.length,
      skipped,
      malformed_lines: preds.counts.malformed_lines ?? 0,
      ...preds.counts,
      repaired_polygons: repaired,
    },
    warnings: warnings.list(),
    cases,
    ...(caseCounts ? { caseCounts } : {}),
    unitStats: Object.fromEntries(ds.splitFiles.map((f) => [SPLITS[f.split].key, { width: unitWidth, rows: unitRows.get(f.split)!.rows }])),
    ...(classCounts
      ? {
          diagnostics: {
            errors,
            case_unit: SPLITS[cs].key,
            case_counts: classCounts,
            background,
            missed: Uint32Array.from(missed),
            polygon_mode: v.multi,
          },
        }
      : {}),
    extra: {
      protocol: v.name,
      thresholds: [...v.thresholds],
      splits: summaries,
      case_split: SPLITS[cs].key,
      case_threshold: v.thresholds[ci],
      // Diagnostic only: hits a maximum bipartite matching would find at the case split's threshold.
      first_fit_hits: fitHits,
      max_matching_hits: maxHits,
    },
  };
}
