/**
 * gansulishuzhi metric (gansulishuzhi.md "Metric"): per page, greedy max-IoU matching once over
 * pairs with IoU > 0; at T ∈ {0.3, 0.5, 0.7} a matched pair is a TP when IoU ≥ T; TP / FP / FN
 * pooled over pages; mean IoU of all matched pairs and of each T's TPs. Cases are coloured at 0.5.
 */
import type { Box } from '../../geometry/box';
import type { CaseRecord, Instance, LoadedPredictions, ModelResult, Protocol, RunContext } from '../../model';
import { formatIoU, greedyMatch, type Pair } from '../tabench/match';
import { perQueryPRF } from '../tabench/metrics';
import { cleanModelOutput, exportableRaw } from '../../text/modelOutput';
import { looksLikeQwenBoxTokens, QWEN_OPTION, readQwenBoxTokens, rel1000ToPixels } from '../../text/groundingTokens';
import { inspectSpace, pixelReadingWarning, rel1000ReadingWarning, usableSize, type SpaceSample } from '../../geometry/coordSpace';
import type { GansuDataset, Page } from './dataset';
import type { GansuPredictions, PagePrediction } from './predictions';
import { applyClasses, classifyBoxes, SLOTS, newBoxMemo } from '../../errors/boxes';
import { addCounts } from '../../errors/classify';
import { f1Of, newTally, unitErrors } from '../../errors/units';
import { collectSuspectInputs } from '../../errors/suspects';
import { errorSlot, FP_CLASSES, type UnitErrors } from '../../model';
import type { BoxesChoice, BoxFamily } from '../../text/vlmBoxes/types';
import { contradictedLineCoords, diagnoseGansuRun, familyFor, readPageAs } from './dialects';

const BACKGROUND = FP_CLASSES.indexOf('background');

export const THRESHOLDS = [0.3, 0.5, 0.7] as const;
/** The threshold the case view colours by (the spec's outcome rule). */
export const CASE_T = 0.5;

/**
 * A page's row of `unitStats.all` (pages in manifest order): GT, predictions, matched pairs,
 * their IoU sum, then per threshold its TPs and their IoU sum.
 */
export const GANSU_UNIT_WIDTH = 4 + 2 * THRESHOLDS.length;

interface Pool {
  tp: number;
  iouSum: number;
}

export interface PagePixels {
  /** Boxes as the answer wrote them, and in pixels (empty when they cannot be placed). */
  raw: Box[];
  boxes: Box[];
  coords: 'abs' | 'rel1000';
  /** rel1000 boxes on a page with no usable size: counted as predictions, matched to nothing. */
  noSize: boolean;
  /** Read from Qwen2-VL box tokens (qwen2vl_boxes=true). */
  tokens: boolean;
  /** Read by the `boxes` option as this family (`raw` then holds 0–1000 of the page); `found`: its own syntax was there. */
  dialect?: { family: BoxFamily; found: boolean };
}

/**
 * Pixel boxes of a page's prediction: a line's own `coords` beats the option; no rounding.
 * With qwen2vl_boxes, a raw answer holding Qwen2-VL box tokens is read from them, in 0–1000
 * whatever `coords` says (that is what the tokens are). A rel1000 box needs the page size:
 * without one it is not placed anywhere (never scored as if it were pixels).
 */
export function predictedPixels(page: Page, p: PagePrediction, optionCoords: string, qwen = false): PagePixels {
  let raw = p.boxes;
  let coords: 'abs' | 'rel1000' = (p.coords ?? optionCoords) === 'rel1000' ? 'rel1000' : 'abs';
  let tokens = false;
  if (qwen && typeof p.raw === 'string') {
    const found = readQwenBoxTokens(cleanModelOutput(p.raw).text);
    if (found.length > 0) {
      raw = found;
      coords = 'rel1000';
      tokens = true;
    }
  }
  if (coords !== 'rel1000') return { raw, boxes: raw, coords, noSize: false, tokens };
  const size = page.size ? usableSize({ width: page.size[0], height: page.size[1] }) : null;
  if (!size) return { raw, boxes: [], coords, noSize: raw.length > 0, tokens };
  return { raw, boxes: raw.map((b) => rel1000ToPixels(b, size.width, size.height)), coords, noSize: false, tokens };
}

export async function scoreGansu(
  ds: GansuDataset,
  preds: LoadedPredictions<GansuPredictions>,
  protocol: Protocol,
  ctx?: RunContext,
): Promise<ModelResult> {
  const optionCoords = protocol.options.coords === 'rel1000' ? 'rel1000' : 'abs';
  const qwen = protocol.options[QWEN_OPTION] === true;
  const choice: BoxesChoice = typeof protocol.options.boxes === 'string' ? (protocol.options.boxes as BoxesChoice) : 'default';
  const specPixels = (page: Page, p: PagePrediction) => predictedPixels(page, p, optionCoords, qwen);
  // The run's box dialects, read once over the whole run before scoring: `boxes=auto` reads
  // bbox_2d answers in the space this fit chose.
  let dialect = diagnoseGansuRun(ds, preds.data, protocol.options, choice, specPixels);
  const pixelsOf = (page: Page, p: PagePrediction): PagePixels => {
    const family = familyFor(choice, dialect?.bbox2d ?? 'qwen25vl', p.raw);
    if (family === null) return specPixels(page, p);
    const d = readPageAs(family, page, p, protocol.options);
    return { raw: d.raw, boxes: d.boxes, coords: 'rel1000', noSize: d.noSize, tokens: false, dialect: { family, found: d.found } };
  };
  const samples: { abs: SpaceSample[]; rel1000: SpaceSample[] } = { abs: [], rel1000: [] };
  const ownCoords = { abs: 0, rel1000: 0 };
  const noSizePages: string[] = [];
  const tokenLines = new Set<number>();
  let answers = 0;
  let tokenLike = 0;
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
  // Each page's own counts for the uncertainty intervals (layout: GANSU_UNIT_COLUMNS).
  const unitRows = new Float64Array(ds.pages.length * GANSU_UNIT_WIDTH);
  for (let i = 0; i < ds.pages.length; i++) {
    if (i % 1000 === 0) ctx?.signal?.throwIfAborted();
    const page = ds.pages[i];
    const p = preds.data.byPage.get(i);
    if (!p) missing += 1;
    const px = p ? pixelsOf(page, p) : undefined;
    const boxes = px?.boxes ?? [];
    const m = greedyMatch(page.gt, boxes, (iou) => iou > 0);
    nGt += page.gt.length;
    // Boxes that could not be placed still count as predictions (they match nothing).
    nPred += px?.raw.length ?? 0;
    if (p && px) {
      answers += 1;
      if (px.tokens || px.dialect?.found) tokenLines.add(p.line);
      if (p.unparseable && !px.tokens && looksLikeQwenBoxTokens(p.raw)) tokenLike += 1;
      if (px.noSize) noSizePages.push(page.id);
      if (!px.tokens && !px.dialect) {
        if (p.coords) ownCoords[p.coords] += 1;
        const size = page.size ? usableSize({ width: page.size[0], height: page.size[1] }) : null;
        const alt = !size ? null : px.coords === 'abs' ? px.raw.map((b) => rel1000ToPixels(b, size.width, size.height)) : px.raw;
        samples[px.coords].push({ gt: page.gt, raw: px.raw, scored: boxes, alt, size });
      }
    }
    const row = i * GANSU_UNIT_WIDTH;
    unitRows[row] = page.gt.length;
    unitRows[row + 1] = px?.raw.length ?? 0;
    for (const pair of m.pairs) {
      pairCount += 1;
      pairIouSum += pair.iou;
      unitRows[row + 2] += 1;
      unitRows[row + 3] += pair.iou;
      THRESHOLDS.forEach((t, k) => {
        if (pair.iou >= t) {
          pools[k].tp += 1;
          pools[k].iouSum += pair.iou;
          unitRows[row + 4 + 2 * k] += 1;
          unitRows[row + 5 + 2 * k] += pair.iou;
        }
      });
    }
    const c = pageCase(ds, page, p, px, m.pairs, m.gtBest, m.predBest, optionCoords);
    if (taxonomy) {
      const memo = newBoxMemo();
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
        const { im, res } = classifyBoxes({ gt: page.gt, pred: boxes, gtPartner, predPartner }, t, false, atCase, undefined, memo);
        addCounts(im, res, tallies[k].fn, tallies[k].fp);
        if (atCase) applyClasses(res, c.gt, c.pred, classCounts, i * SLOTS);
      });
      // Boxes that could not be placed (rel1000 on a page with no size) are FPs that reach no GT:
      // background, so that the FP classes still sum to pred − hits.
      if (px?.noSize && px.raw.length > 0) {
        for (const tally of tallies) tally.fp[BACKGROUND] += px.raw.length;
        for (const inst of c.pred) if (inst.state === 'fp' && !inst.shape) inst.error = 'background';
        const slot = i * SLOTS + errorSlot('fp', 'background');
        classCounts[slot] = Math.min(65535, classCounts[slot] + px.raw.length);
      }
    }
    cases.push(c);
  }
  // Answers in a dialect the diagnosis names a fitting reading for: its sentence replaces the coords hint.
  const dialectSpeaks = dialect !== null && dialect.dialects.length > 0 && dialect.fit !== null;
  const spaceSaid = dialectSpeaks ? [] : gansuSpaceWarnings(samples, ownCoords, optionCoords);
  // Lines whose own coords their boxes contradict, when the file-level check has not said it already.
  const lineCoords = choice === 'default' && spaceSaid.length === 0 ? contradictedLineCoords(ds, preds.data) : null;
  // Plain boxes (no dialect marker) in the wrong space are the coordinate checks' to name.
  if (dialect && dialect.dialects.length === 0 && dialect.current === 'default' && (spaceSaid.length > 0 || lineCoords)) dialect = null;
  const metrics: Record<string, number> = {};
  const rates = new Float64Array(4);
  THRESHOLDS.forEach((t, k) => {
    const tp = pools[k].tp;
    const fp = nPred - tp;
    const fn = nGt - tp;
    const key = `iou${t}`;
    ratesInto(tp, nGt, nPred, pools[k].iouSum, rates, 0);
    metrics[`${key}/precision`] = rates[0];
    metrics[`${key}/recall`] = rates[1];
    metrics[`${key}/f1`] = rates[2];
    metrics[`${key}/tp`] = tp;
    metrics[`${key}/fp`] = fp;
    metrics[`${key}/fn`] = fn;
    metrics[`${key}/mean_iou`] = rates[3];
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
      ...(preds.data.format === 'batch'
        ? { batch_lines: preds.counts.batch_lines ?? 0, failed_requests: preds.counts.failed_requests ?? 0, truncated_answers: preds.counts.truncated_answers ?? 0 }
        : {}),
    },
    warnings: [
      // A line the Qwen2-VL reading took is no longer unparseable.
      ...preds.warnings.filter((w) => !(tokenLines.has(lineOf(w)) && w.endsWith(': unparseable_output'))),
      ...spaceSaid,
      ...(noSizePages.length
        ? [
            `coordinate space: ${noSizePages.length} pages have rel1000 boxes but no usable page size (image_size_px missing or not two positive numbers, and no readable image header): their boxes cannot be placed and count as predictions that match nothing (error no_page_size) — ${listFirst(noSizePages)}`,
          ]
        : []),
      ...(dialect ? [dialect.text] : []),
      ...(lineCoords ? [lineCoords] : []),
      ...(!qwen && tokenLike > 0 && tokenLike * 2 > answers && dialect?.fit?.choice !== 'qwen2vl'
        ? [
            `${tokenLike} of ${answers} answers are unparseable and hold Qwen2-VL grounding boxes (<|box_start|>(x1,y1),(x2,y2)<|box_end|>, 0–1000 of the page): --option ${QWEN_OPTION}=true reads them`,
          ]
        : []),
    ],
    cases,
    ...(dialect ? { boxDialect: dialect } : {}),
    unitStats: { all: { width: GANSU_UNIT_WIDTH, rows: unitRows } },
    ...(taxonomy ? { diagnostics: { errors, case_unit: `iou${CASE_T}`, case_counts: classCounts, ...collectSuspectInputs(cases, classCounts) } } : {}),
  };
}

function lineOf(w: string): number {
  const m = /^line (\d+):/.exec(w);
  return m ? Number(m[1]) : 0;
}

/** The first 20 names, then how many more. */
function listFirst(names: readonly string[]): string {
  const head = names.slice(0, 20).join(', ');
  return names.length > 20 ? `${head} and ${names.length - 20} more` : head;
}

/** Says when the boxes do not look like the space they are read in (see geometry/coordSpace). */
function gansuSpaceWarnings(samples: { abs: SpaceSample[]; rel1000: SpaceSample[] }, own: { abs: number; rel1000: number }, optionCoords: string): string[] {
  const t = CASE_T;
  const out: string[] = [];
  // The option only reaches lines without their own coords: name the field when it decides.
  const toRel = own.abs > 0 ? `the lines' own "coords": "abs" decides for ${own.abs} pages — drop it and score with --option coords=rel1000` : 'score with --option coords=rel1000';
  const toAbs =
    own.rel1000 > 0 ? `the lines' own "coords": "rel1000" decides for ${own.rel1000} pages — drop it${optionCoords === 'rel1000' ? ' and score with --option coords=abs' : ''}` : 'score with --option coords=abs';
  const a = pixelReadingWarning(inspectSpace(samples.abs, t), 'predicted boxes read as pixels', t, toRel);
  if (a) out.push(a);
  const r = rel1000ReadingWarning(inspectSpace(samples.rel1000, t), 'predicted boxes', t, toAbs);
  if (r) out.push(r);
  return out;
}

function parseRule(p: PagePrediction, px: PagePixels | undefined): string {
  if (px?.tokens) return 'qwen2vl-tokens';
  if (px?.dialect) return px.dialect.found ? px.dialect.family : `${px.dialect.family}-plain`;
  return p.rule;
}

function tpAt(iou: number): number[] {
  return THRESHOLDS.filter((t) => iou >= t);
}

function pageCase(
  ds: GansuDataset,
  page: Page,
  p: PagePrediction | undefined,
  px: PagePixels | undefined,
  pairs: Pair[],
  gtBest: Float64Array,
  predBest: Float64Array,
  optionCoords: string,
): CaseRecord {
  const boxes = px?.boxes ?? [];
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
  // Boxes that could not be placed (rel1000, no page size) are FPs without a shape.
  const unplaced: Instance[] = px?.noSize
    ? px.raw.map((b, k) => ({ id: k, state: 'fp', attrs: { box_rel1000: b }, reason: 'a rel1000 box on a page with no usable size: cannot be placed' }))
    : [];
  const pred: Instance[] = px?.noSize ? unplaced : boxes.map((b, k) => {
    const pair = predPair.get(k);
    const inst: Instance = { id: k, shape: { type: 'box', box: b }, state: pair && pair.iou >= t ? 'tp' : 'fp', best_iou: predBest[k] };
    if (px && px.coords === 'rel1000') inst.attrs = { box_rel1000: px.raw[k] };
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
  const nPred = px?.raw.length ?? 0;
  const tp = pairs.filter((x) => x.iou >= t).length;
  const fp = nPred - tp;
  const fn = page.gt.length - tp;
  const errors: string[] = [];
  if (!p) errors.push('missing_prediction');
  else if (p.unparseable && !px?.tokens && !px?.dialect?.found) errors.push('unparseable_output');
  if (px?.noSize) errors.push('no_page_size');
  const perT: Record<string, { tp: number; fp: number; fn: number }> = {};
  for (const th of THRESHOLDS) {
    const n = pairs.filter((x) => x.iou >= th).length;
    perT[String(th)] = { tp: n, fp: nPred - n, fn: page.gt.length - n };
  }
  const overlay = ds.overlays.get(page.image_path);
  return {
    case_id: page.id,
    image_path: page.image_path,
    image_file: ds.imageFiles.get(page.image_path) ?? null,
    facets: { has_figures: page.gt.length > 0, ...(page.page !== undefined ? { page: page.page } : {}) },
    score: perQueryPRF(tp, page.gt.length, nPred).f1,
    // pass: no FP and no FN; fail: no TP (FPs on a page without figures included); else partial.
    outcome: fp === 0 && fn === 0 ? 'pass' : tp === 0 ? 'fail' : 'partial',
    gt,
    pred,
    matches: pairs.map((x) => ({ gt: x.gt, pred: x.pred, iou: x.iou, tp_at: tpAt(x.iou) })),
    errors,
    detail: {
      ...(p
        ? { line: p.line, output_field: p.field, raw_output: exportableRaw(p.raw), parse_rule: parseRule(p, px), parse_steps: p.steps }
        : { parse_rule: 'missing_prediction' }),
      coords: px?.coords ?? p?.coords ?? optionCoords,
      iou_threshold: t,
      at: perT,
      overlay_path: overlay ?? null,
      overlay_file: overlay ? (ds.root ? `${ds.root}/${overlay}` : overlay) : null,
    },
    ...(page.size ? { width: page.size[0], height: page.size[1] } : {}),
  };
}

/**
 * The official rates of one IoU threshold from pooled counts — micro precision, recall, F1 and the
 * matched pairs' mean IoU, each 0 on a zero denominator — written to `out[at … at + 3]`. Shared by
 * the official number and the uncertainty replicates (which pool weighted page sums), so both
 * compute them with one formula and allocate nothing.
 */
export function ratesInto(tp: number, nGt: number, nPred: number, iouSum: number, out: Float64Array, at: number): void {
  const precision = nPred > 0 ? tp / nPred : 0;
  const recall = nGt > 0 ? tp / nGt : 0;
  out[at] = precision;
  out[at + 1] = recall;
  out[at + 2] = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  out[at + 3] = tp > 0 ? iouSum / tp : 0;
}
