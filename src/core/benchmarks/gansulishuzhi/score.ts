/**
 * gansulishuzhi metric (gansulishuzhi.md "Metric"): per page, greedy max-IoU matching once over
 * pairs with IoU > 0; at T ∈ {0.3, 0.5, 0.7} a matched pair is a TP when IoU ≥ T; TP / FP / FN
 * pooled over pages; mean IoU of all matched pairs and of each T's TPs. Cases are coloured at 0.5.
 */
import type { Box } from '../../geometry/box';
import type { CaseRecord, Instance, LoadedPredictions, ModelResult, Protocol, RunContext } from '../../model';
import { formatIoU, greedyMatch, type Pair } from '../tabench/match';
import { perQueryPRF } from '../tabench/metrics';
import { exportableRaw } from '../../text/modelOutput';
import type { GansuDataset, Page } from './dataset';
import type { GansuPredictions, PagePrediction } from './predictions';
import { applyClasses, classifyBoxes, SLOTS } from '../../errors/boxes';
import { addCounts } from '../../errors/classify';
import { f1Of, newTally, unitErrors } from '../../errors/units';
import { collectSuspectInputs } from '../../errors/suspects';
import type { UnitErrors } from '../../model';

export const THRESHOLDS = [0.3, 0.5, 0.7] as const;
/** The threshold the case view colours by (the spec's outcome rule). */
export const CASE_T = 0.5;

interface Pool {
  tp: number;
  iouSum: number;
}

/** Pixel boxes of a page's prediction: a line's own `coords` beats the option; no rounding. */
export function predictedPixels(page: Page, p: PagePrediction, optionCoords: string): Box[] {
  const coords = p.coords ?? optionCoords;
  if (coords !== 'rel1000') return p.boxes;
  if (!page.size) return p.boxes;
  const [w, h] = page.size;
  return p.boxes.map((b) => [(b[0] * w) / 1000, (b[1] * h) / 1000, (b[2] * w) / 1000, (b[3] * h) / 1000] as Box);
}

export async function scoreGansu(
  ds: GansuDataset,
  preds: LoadedPredictions<GansuPredictions>,
  protocol: Protocol,
  ctx?: RunContext,
): Promise<ModelResult> {
  const optionCoords = protocol.options.coords === 'rel1000' ? 'rel1000' : 'abs';
  const pools: Pool[] = THRESHOLDS.map(() => ({ tp: 0, iouSum: 0 }));
  let pairCount = 0;
  let pairIouSum = 0;
  let nGt = 0;
  let nPred = 0;
  let missing = 0;
  const cases: CaseRecord[] = [];
  // The error taxonomy (errors.md): one unit per threshold; the case view's classes at CASE_T.
  const taxonomy = ctx?.diagnostics !== false;
  const tallies = THRESHOLDS.map(() => newTally(null));
  const classCounts = new Uint16Array(taxonomy ? ds.pages.length * SLOTS : 0);
  for (let i = 0; i < ds.pages.length; i++) {
    if (i % 1000 === 0) ctx?.signal?.throwIfAborted();
    const page = ds.pages[i];
    const p = preds.data.byPage.get(i);
    if (!p) missing += 1;
    const boxes = p ? predictedPixels(page, p, optionCoords) : [];
    const m = greedyMatch(page.gt, boxes, (iou) => iou > 0);
    nGt += page.gt.length;
    nPred += boxes.length;
    for (const pair of m.pairs) {
      pairCount += 1;
      pairIouSum += pair.iou;
      THRESHOLDS.forEach((t, k) => {
        if (pair.iou >= t) {
          pools[k].tp += 1;
          pools[k].iouSum += pair.iou;
        }
      });
    }
    const c = pageCase(ds, page, p, boxes, m.pairs, m.gtBest, m.predBest, optionCoords);
    if (taxonomy) {
      THRESHOLDS.forEach((t, k) => {
        // "Would match" at T is IoU ≥ T; the official pairs at T are the greedy pairs with IoU ≥ T.
        const gtPartner = new Int32Array(page.gt.length).fill(-1);
        const predPartner = new Int32Array(boxes.length).fill(-1);
        for (const x of m.pairs) {
          if (x.iou >= t) {
            gtPartner[x.gt] = x.pred;
            predPartner[x.pred] = x.gt;
          }
        }
        const atCase = t === CASE_T;
        const { im, res } = classifyBoxes({ gt: page.gt, pred: boxes, gtPartner, predPartner }, t, false, atCase);
        addCounts(im, res, tallies[k].fn, tallies[k].fp);
        if (atCase) applyClasses(res, c.gt, c.pred, classCounts, i * SLOTS);
      });
    }
    cases.push(c);
  }
  const metrics: Record<string, number> = {};
  THRESHOLDS.forEach((t, k) => {
    const tp = pools[k].tp;
    const fp = nPred - tp;
    const fn = nGt - tp;
    const precision = nPred > 0 ? tp / nPred : 0;
    const recall = nGt > 0 ? tp / nGt : 0;
    const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
    const key = `iou${t}`;
    metrics[`${key}/precision`] = precision;
    metrics[`${key}/recall`] = recall;
    metrics[`${key}/f1`] = f1;
    metrics[`${key}/tp`] = tp;
    metrics[`${key}/fp`] = fp;
    metrics[`${key}/fn`] = fn;
    metrics[`${key}/mean_iou`] = tp > 0 ? pools[k].iouSum / tp : 0;
  });
  const errors: Record<string, UnitErrors> = {};
  THRESHOLDS.forEach((t, k) => {
    Object.assign(tallies[k], { gt: nGt, pred: nPred, hits: pools[k].tp });
    errors[`iou${t}`] = unitErrors(tallies[k], f1Of);
  });
  metrics.mean_iou = pairCount > 0 ? pairIouSum / pairCount : 0;
  metrics.pages = ds.pages.length;
  metrics.gt = nGt;
  metrics.pred = nPred;
  return {
    model: preds.model,
    metrics,
    counts: {
      cases: ds.pages.length,
      skipped: ds.badLines,
      malformed_lines: preds.counts.malformed_lines ?? 0,
      missing_pages: missing,
      unknown_lines: preds.counts.unknown_lines ?? 0,
      duplicate_lines: preds.counts.duplicate_lines ?? 0,
    },
    warnings: [...preds.warnings],
    cases,
    ...(taxonomy ? { diagnostics: { errors, case_unit: `iou${CASE_T}`, case_counts: classCounts, ...collectSuspectInputs(cases, classCounts) } } : {}),
  };
}

function tpAt(iou: number): number[] {
  return THRESHOLDS.filter((t) => iou >= t);
}

function pageCase(
  ds: GansuDataset,
  page: Page,
  p: PagePrediction | undefined,
  boxes: Box[],
  pairs: Pair[],
  gtBest: Float64Array,
  predBest: Float64Array,
  optionCoords: string,
): CaseRecord {
  const gtPair = new Map(pairs.map((x) => [x.gt, x]));
  const predPair = new Map(pairs.map((x) => [x.pred, x]));
  const t = CASE_T;
  const gt: Instance[] = page.gt.map((b, g) => {
    const pair = gtPair.get(g);
    const inst: Instance = { id: g, shape: { type: 'box', box: b }, state: pair && pair.iou >= t ? 'tp' : 'fn', best_iou: gtBest[g] };
    if (pair) {
      inst.partner = pair.pred;
      inst.iou = pair.iou;
      inst.reason =
        pair.iou >= t
          ? `matched prediction ${pair.pred} at IoU ${formatIoU(pair.iou, t)} ≥ ${t}`
          : `matched prediction ${pair.pred} at IoU ${formatIoU(pair.iou, t)} < ${t}${tpAt(pair.iou).length ? ` (a TP at ${tpAt(pair.iou).join(', ')})` : ''}`;
    } else inst.reason = boxes.length === 0 ? 'no predicted box' : gtBest[g] > 0 ? 'every overlapping prediction was matched to another figure' : 'no predicted box overlaps it';
    return inst;
  });
  const pred: Instance[] = boxes.map((b, k) => {
    const pair = predPair.get(k);
    const inst: Instance = { id: k, shape: { type: 'box', box: b }, state: pair && pair.iou >= t ? 'tp' : 'fp', best_iou: predBest[k] };
    if (p && b !== p.boxes[k]) inst.attrs = { box_rel1000: p.boxes[k] };
    if (pair) {
      inst.partner = pair.gt;
      inst.iou = pair.iou;
      inst.reason =
        pair.iou >= t
          ? `matched GT ${pair.gt} at IoU ${formatIoU(pair.iou, t)} ≥ ${t}`
          : `IoU ${formatIoU(pair.iou, t)} < ${t} with GT ${pair.gt}${tpAt(pair.iou).length ? ` (a TP at ${tpAt(pair.iou).join(', ')})` : ''}`;
    } else inst.reason = page.gt.length === 0 ? 'the page has no figure' : predBest[k] > 0 ? 'duplicate: the figure it overlaps was matched to another prediction' : 'overlaps no GT figure';
    return inst;
  });
  const tp = pairs.filter((x) => x.iou >= t).length;
  const fp = boxes.length - tp;
  const fn = page.gt.length - tp;
  const errors: string[] = [];
  if (!p) errors.push('missing_prediction');
  else if (p.unparseable) errors.push('unparseable_output');
  const perT: Record<string, { tp: number; fp: number; fn: number }> = {};
  for (const th of THRESHOLDS) {
    const n = pairs.filter((x) => x.iou >= th).length;
    perT[String(th)] = { tp: n, fp: boxes.length - n, fn: page.gt.length - n };
  }
  const overlay = ds.overlays.get(page.image_path);
  return {
    case_id: page.id,
    image_path: page.image_path,
    image_file: ds.imageFiles.get(page.image_path) ?? null,
    facets: { has_figures: page.gt.length > 0, ...(page.page !== undefined ? { page: page.page } : {}) },
    score: perQueryPRF(tp, page.gt.length, boxes.length).f1,
    // pass: no FP and no FN; fail: no TP (FPs on a page without figures included); else partial.
    outcome: fp === 0 && fn === 0 ? 'pass' : tp === 0 ? 'fail' : 'partial',
    gt,
    pred,
    matches: pairs.map((x) => ({ gt: x.gt, pred: x.pred, iou: x.iou, tp_at: tpAt(x.iou) })),
    errors,
    detail: {
      ...(p ? { line: p.line, output_field: p.field, raw_output: exportableRaw(p.raw), parse_rule: p.rule, parse_steps: p.steps } : { parse_rule: 'missing_prediction' }),
      coords: p?.coords ?? optionCoords,
      iou_threshold: t,
      at: perT,
      overlay_path: overlay ?? null,
      overlay_file: overlay ? (ds.root ? `${ds.root}/${overlay}` : overlay) : null,
    },
    ...(page.size ? { width: page.size[0], height: page.size[1] } : {}),
  };
}
