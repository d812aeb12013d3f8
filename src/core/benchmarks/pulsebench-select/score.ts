/**
 * Selection F1 over a dataset: micro P/R/F1 from pooled TP/FP/FN, the card's macro diagnostics,
 * and one CaseRecord per sample explaining every match and every miss.
 */
import type { CaseRecord, Instance, LoadedPredictions, Match, ModelResult, Outcome, RunContext, Shape } from '../../model';
import type { PulseDataset, PulseSample } from './dataset';
import type { SelItem } from './items';
import { better, matchSample, OVERLAP_MIN, pairInfo, type MatchOptions, type PairInfo } from './match';
import type { PredItem, PulsePredictions } from './predictions';

export interface SampleCounts {
  tp: number;
  fp: number;
  fn: number;
  /** Selected predictions (tp + fp) and selected GT (tp + fn). */
  predicted: number;
  truth: number;
}

const rate = (num: number, den: number) => (den > 0 ? num / den : 0);

/**
 * A sample's row of the per-sample sums the metrics pool (PULSE_UNIT_COLUMNS): its TP, FP, FN,
 * and — when both are defined — its precision, recall and 1 for "in the macro means".
 */
export const PULSE_UNIT_COLUMNS = ['tp', 'fp', 'fn', 'p', 'r', 'scored'] as const;

export function sampleRow(s: SampleCounts, out: Float64Array, at: number): void {
  out[at] = s.tp;
  out[at + 1] = s.fp;
  out[at + 2] = s.fn;
  // Precision is undefined without selected predictions, recall without selected GT; a sample
  // where either is undefined is left out of BOTH means (the card's column definitions).
  const scored = !(s.predicted === 0 || s.truth === 0);
  out[at + 3] = scored ? s.tp / s.predicted : 0;
  out[at + 4] = scored ? s.tp / s.truth : 0;
  out[at + 5] = scored ? 1 : 0;
}

/** The rates of the spec from pooled sums (PULSE_UNIT_COLUMNS order), in PULSE_RATE_KEYS order. */
export const PULSE_RATE_KEYS = ['precision', 'recall', 'f1', 'macro_precision', 'macro_recall'] as const;

export function selectionRates(sums: Float64Array, out: Float64Array): void {
  const tp = sums[0];
  const fp = sums[1];
  const fn = sums[2];
  const precision = rate(tp, tp + fp);
  const recall = rate(tp, tp + fn);
  out[0] = precision;
  out[1] = recall;
  out[2] = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  out[3] = rate(sums[3], sums[5]);
  out[4] = rate(sums[4], sums[5]);
}

/** The metric keys of the spec, from per-sample counts (exported for unit tests). */
export function selectionMetrics(perSample: readonly SampleCounts[]): Record<string, number> {
  const sums = new Float64Array(PULSE_UNIT_COLUMNS.length);
  const row = new Float64Array(PULSE_UNIT_COLUMNS.length);
  for (const s of perSample) {
    sampleRow(s, row, 0);
    for (let c = 0; c < row.length; c++) sums[c] += row[c];
  }
  const r = new Float64Array(PULSE_RATE_KEYS.length);
  selectionRates(sums, r);
  return {
    precision: r[0],
    recall: r[1],
    f1: r[2],
    tp: sums[0],
    fp: sums[1],
    fn: sums[2],
    macro_precision: r[3],
    macro_recall: r[4],
    macro_skipped_samples: perSample.length - sums[5],
    samples: perSample.length,
  };
}

/** Every sample's row (sampleRow), in dataset order. */
function unitRows(per: readonly SampleCounts[]): Float64Array {
  const out = new Float64Array(per.length * PULSE_UNIT_COLUMNS.length);
  per.forEach((s, i) => sampleRow(s, out, i * PULSE_UNIT_COLUMNS.length));
  return out;
}

/** pass: no FP and no FN; fail: no TP (which covers FPs on a sample with nothing selected); else partial. */
export function outcomeOf(c: { tp: number; fp: number; fn: number }): Outcome {
  if (c.fp === 0 && c.fn === 0) return 'pass';
  if (c.tp === 0) return 'fail';
  return 'partial';
}

/** "0.67" — with more digits when two decimals would print the threshold itself. */
function num(x: number, threshold?: number): string {
  const s = x.toFixed(2);
  if (threshold !== undefined && s === threshold.toFixed(2) && x !== threshold) return String(Number(x.toPrecision(6)));
  return s;
}

function dist(d: number | null): string {
  return d === null ? 'n/a (a box is missing)' : d.toFixed(3);
}

function quote(s: string): string {
  return JSON.stringify(s.length > 60 ? s.slice(0, 57) + '…' : s);
}

/** Why a pair did not match, in one phrase (null when the pair itself was eligible). */
function pairFailure(info: PairInfo, opt: MatchOptions): string | null {
  if (info.overlap < OVERLAP_MIN) return `token overlap ${num(info.overlap, OVERLAP_MIN)} < ${OVERLAP_MIN.toFixed(2)}`;
  if (info.veto === 'far') return `centroid ${num(info.distance!, opt.centroidMax)} > ${opt.centroidMax}`;
  if (info.veto === 'missing_box') return 'a box is missing (missing_box=fail)';
  return null;
}

function shapeOf(it: SelItem, s: PulseSample): Shape | undefined {
  if (!it.box || !s.width || !s.height) return undefined;
  const points = it.box.map((v, i) => (i % 2 === 0 ? v * s.width! : v * s.height!));
  return { type: 'polygon', points };
}

function attrsOf(it: SelItem, extra: Record<string, unknown>): Record<string, unknown> {
  const a: Record<string, unknown> = { page: it.page, bbox: it.box, ...extra };
  if (it.category !== undefined) a.category = it.category;
  return a;
}

/** The most similar item of `pool` on `page` (overlap, then distance, then index), or null. */
function nearest(
  pool: readonly { item: SelItem; id: number }[],
  pairOf: (x: SelItem) => PairInfo,
  page: number,
): { id: number; info: PairInfo; item: SelItem } | null {
  let best: { id: number; info: PairInfo; item: SelItem } | null = null;
  for (const x of pool) {
    if (x.item.page !== page) continue;
    const info = pairOf(x.item);
    if (!best || better(info, x.id, best.info, best.id)) best = { id: x.id, info, item: x.item };
  }
  return best;
}

export function scoreSample(
  sample: PulseSample,
  predsAll: readonly PredItem[] | undefined,
  opt: MatchOptions,
): { record: CaseRecord; counts: SampleCounts } {
  const preds = predsAll ?? [];
  const selIds: number[] = [];
  preds.forEach((p, j) => {
    if (p.selected) selIds.push(j);
  });
  const m = matchSample(
    sample.gt,
    selIds.map((j) => preds[j]),
    opt,
  );
  const predToGt = new Map<number, number>();
  const kOf = new Map<number, number>();
  selIds.forEach((j, k) => {
    kOf.set(j, k);
    if (m.predToGt[k] !== null) predToGt.set(j, m.predToGt[k]!);
  });
  const gtToPred = m.gtToPred.map((k) => (k === null ? null : selIds[k]));
  const tp = predToGt.size;
  const counts: SampleCounts = { tp, fp: selIds.length - tp, fn: sample.gt.length - tp, predicted: selIds.length, truth: sample.gt.length };

  const gtPool = sample.gt.map((item, id) => ({ item, id }));
  const predPool = selIds.map((id) => ({ item: preds[id] as SelItem, id }));
  const matches: Match[] = [];
  const gt: Instance[] = sample.gt.map((g, i) => {
    const j = gtToPred[i];
    const inst: Instance = { id: i, text: g.content, state: j === null ? 'fn' : 'tp', attrs: attrsOf(g, { selected: true }) };
    const shape = shapeOf(g, sample);
    if (shape) inst.shape = shape;
    if (j !== null) {
      const info = pairInfo(g, preds[j], opt);
      inst.partner = j;
      inst.iou = info.overlap;
      inst.reason = `matched by prediction ${j}: token overlap ${num(info.overlap)}, centroid ${dist(info.distance)}`;
      matches.push({
        gt: i,
        pred: j,
        overlap: info.overlap,
        centroid_distance: info.distance,
        gt_text: g.content,
        pred_text: preds[j].content,
      });
    } else {
      const near = nearest(predPool, (p) => pairInfo(g, p, opt), g.page);
      if (!near) inst.reason = `missed: no selected prediction on page ${g.page}`;
      else {
        inst.best_iou = near.info.overlap;
        const why = pairFailure(near.info, opt);
        const taken = predToGt.get(near.id);
        inst.reason =
          `missed: nearest prediction ${near.id} ${quote(near.item.content)}: ` +
          (why ?? (taken !== undefined ? `matched GT ${taken} instead` : 'not matched'));
      }
    }
    return inst;
  });
  sample.candidates.forEach((c, k) => {
    const inst: Instance = {
      id: sample.gt.length + k,
      text: c.content,
      state: 'info',
      reason: 'selection candidate, not selected in the GT',
      tags: ['candidate'],
      attrs: attrsOf(c, { selected: false }),
    };
    const shape = shapeOf(c, sample);
    if (shape) inst.shape = shape;
    gt.push(inst);
  });

  const pred: Instance[] = preds.map((p, j) => {
    const inst: Instance = { id: j, text: p.content, state: 'info', attrs: attrsOf(p, { selected: p.selected, line: p.line }) };
    const shape = shapeOf(p, sample);
    if (shape) inst.shape = shape;
    if (!p.selected) {
      inst.reason = 'selected: false — not scored';
      inst.tags = ['unselected'];
      return inst;
    }
    const g = predToGt.get(j);
    if (g !== undefined) {
      const info = m.pairs.get(`${g}:${kOf.get(j)}`) ?? pairInfo(sample.gt[g], p, opt);
      inst.state = 'tp';
      inst.partner = g;
      inst.iou = info.overlap;
      inst.reason = `matched GT ${g}: token overlap ${num(info.overlap)}, centroid ${dist(info.distance)}`;
      return inst;
    }
    inst.state = 'fp';
    if (sample.gt.length === 0) {
      inst.reason = 'nothing is selected on this sample';
      return inst;
    }
    const near = nearest(gtPool, (x) => pairInfo(x, p, opt), p.page);
    if (!near) {
      inst.reason = `no selected GT on page ${p.page}`;
      return inst;
    }
    inst.best_iou = near.info.overlap;
    const why = pairFailure(near.info, opt);
    const holder = gtToPred[near.id];
    inst.reason =
      `nearest GT ${near.id} ${quote(near.item.content)}: ` +
      (why ?? (holder !== null ? `already taken by prediction ${holder}` : 'not matched'));
    return inst;
  });

  const denom = 2 * counts.tp + counts.fp + counts.fn;
  const errors: string[] = [];
  if (predsAll === undefined) errors.push('no_prediction');
  const record: CaseRecord = {
    case_id: sample.id,
    image_path: sample.imagePath,
    image_file: sample.image === null ? null : sample.image.kind === 'file' ? sample.image.path : `parquet:${sample.image.file}#${sample.image.row}`,
    facets: { category: sample.categories, has_selection: sample.gt.length > 0, pages: sample.pageCount },
    score: denom === 0 ? 1 : (2 * counts.tp) / denom,
    outcome: outcomeOf(counts),
    gt,
    pred,
    matches,
    errors,
    detail: {
      tp: counts.tp,
      fp: counts.fp,
      fn: counts.fn,
      precision: counts.predicted > 0 ? counts.tp / counts.predicted : null,
      recall: counts.truth > 0 ? counts.tp / counts.truth : null,
      selected_predictions: selIds.length,
      unselected_predictions: preds.length - selIds.length,
      ...(sample.image?.kind === 'parquet' ? { parquet_file: sample.image.file, parquet_row: sample.image.row } : {}),
    },
  };
  if (sample.width && sample.height) {
    record.width = sample.width;
    record.height = sample.height;
  }
  return { record, counts };
}

export function scoreDataset(
  dataset: PulseDataset,
  loaded: LoadedPredictions<PulsePredictions>,
  opt: MatchOptions,
  ctx?: RunContext,
): ModelResult {
  const per: SampleCounts[] = [];
  const cases: CaseRecord[] = [];
  let missing = 0;
  const total = dataset.samples.length;
  dataset.samples.forEach((s, i) => {
    if (i % 1000 === 0) {
      ctx?.signal?.throwIfAborted();
      ctx?.progress?.({ phase: 'score', done: i, total });
    }
    const preds = loaded.data.bySample.get(s.id);
    if (preds === undefined) missing += 1;
    const { record, counts } = scoreSample(s, preds, opt);
    per.push(counts);
    cases.push(record);
  });
  ctx?.progress?.({ phase: 'score', done: total, total });
  return {
    model: loaded.model,
    metrics: selectionMetrics(per),
    counts: {
      cases: cases.length,
      skipped: 0,
      malformed_lines: loaded.data.malformedLines,
      missing_samples: missing,
      unknown_samples: loaded.data.unknownSamples,
    },
    warnings: [...loaded.warnings],
    cases,
    unitStats: { samples: { width: PULSE_UNIT_COLUMNS.length, rows: unitRows(per) } },
  };
}
