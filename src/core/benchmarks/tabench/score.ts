/**
 * Scores one model on TABench (tabench.md): R2T exact match and CER over normalised strings,
 * T2R greedy matching at IoU ≥ t with micro or macro P/R/F1, QSR@1/3/5, Overall; every key also
 * per category, source dataset and annotation level. Builds one case record per query.
 */
import type { Box } from '../../geometry/box';
import { charDiff, codePointLength, levenshtein } from '../../text/levenshtein';
import { cleanModelOutput, exportableRaw } from '../../text/modelOutput';
import { looksLikeQwenBoxTokens, pixelsToRel1000, QWEN_OPTION, readQwenBoxTokens, rel1000ToPixels } from '../../text/groundingTokens';
import { inspectSpace, pixelReadingWarning, rel1000ReadingWarning, usableSize, type SpaceSample } from '../../geometry/coordSpace';
import {
  InputError,
  type CaseRecord,
  type Instance,
  type LoadedPredictions,
  type ModelResult,
  type Protocol,
  type RunContext,
} from '../../model';
import { BENCHMARK_FILE, type Query, type Space, type TabenchDataset } from './dataset';
import { formatIoU, greedyMatch } from './match';
import { applyClasses, classifyBoxes, SLOTS } from '../../errors/boxes';
import { addCounts } from '../../errors/classify';
import { addCaseDeltas, f1Of, newCaseMean, newTally, unitErrors } from '../../errors/units';
import { collectSuspectInputs } from '../../errors/suspects';
import { perQueryPRF as caseF1 } from './metrics';
import { perQueryPRF, SLICE_COLUMNS, SlicedMetrics, SliceStats, type T2rAverage, type T2rQueryResult } from './metrics';
import { normalizeR2t, type R2tNorm } from './normalize';
import { orderCorners, parseR2t, parseT2r, type T2rParse } from './parse';
import { joinPredictions, type PredLine, type TabenchPredictions } from './predictions';
import { boxesChoice, contradictedLineSpaces, diagnoseTabenchFile, readT2rChoice, specOf } from './dialects';
import type { BoxesChoice } from '../../text/vlmBoxes/types';

export interface TabenchOptions {
  norm: R2tNorm;
  casefold: boolean;
  average: T2rAverage;
  iou: number;
  coords: 'auto' | Space;
  /** Read Qwen2-VL grounding tokens (0–1000) in T2R answers. */
  qwen: boolean;
  /** The box dialect T2R answers are read in (shared/specs/vlm-boxes.md); default = the spec's parser. */
  boxes: BoxesChoice;
}

export function tabenchOptions(p: Protocol): TabenchOptions {
  const o = p.options;
  return {
    norm: (o.r2t_norm as R2tNorm | undefined) ?? 'nfkc-ws-punct',
    casefold: o.r2t_casefold === true,
    average: o.t2r_average === 'macro' ? 'macro' : 'micro',
    iou: typeof o.t2r_iou === 'number' ? o.t2r_iou : 0.5,
    coords: o.coords === 'abs' || o.coords === 'rel1000' ? o.coords : 'auto',
    qwen: o[QWEN_OPTION] === true,
    boxes: boxesChoice(p),
  };
}

const QSR_K = [1, 3, 5] as const;

export async function scoreTabench(
  ds: TabenchDataset,
  preds: LoadedPredictions<TabenchPredictions>,
  protocol: Protocol,
  ctx?: RunContext,
): Promise<ModelResult> {
  const opt = tabenchOptions(protocol);
  const space: Space = opt.coords === 'auto' ? preds.data.space : opt.coords;
  const data = ds.spaces[space];
  if (!data) throw new InputError(`prediction ${preds.data.file}: scoring in ${space} needs ${BENCHMARK_FILE[space]}, which the dataset lacks`);
  const join = joinPredictions(data, preds.data);
  const sliced = new SlicedMetrics();
  const cases: CaseRecord[] = [];
  let missing = 0;
  let unparseable = 0;
  const toPixels = pixelMapper(ds, space);
  const spaceSamples: SpaceSample[] = [];
  let t2rAnswers = 0;
  let tokenLike = 0;
  let tokensWithoutSize = 0;
  // The error taxonomy (errors.md): one unit, `t2r`, at the protocol's IoU threshold.
  const taxonomy = ctx?.diagnostics !== false;
  const tally = newTally(null);
  const macro = newCaseMean();
  const classCounts = new Uint16Array(taxonomy ? data.queries.length * SLOTS : 0);
  const sizeOf = (p: string) => usableSize(ds.imageSizes.get(p));
  // Without qwen2vl_boxes the spec's reading is the spec parser's, parsed once per line for every reading.
  const specRead = (line: PredLine, size: { width: number; height: number } | null) => (opt.qwen ? readT2r(line.value, opt.qwen, space, size) : specOf(line));
  // The file's box dialects, read once over the whole file before scoring: `boxes=auto` reads
  // bbox_2d answers in the space this fit chose.
  let dialect = diagnoseTabenchFile(data, join, preds.data.lines, space, sizeOf, protocol.options, opt.average, opt.iou, opt.boxes, specRead);
  let dialectNoSize = 0;
  // Each query's own sums (SLICE_COLUMNS) for the uncertainty intervals, in query order.
  const unitRows = new Float64Array(data.queries.length * SLICE_COLUMNS.length);
  const one = new SliceStats();

  for (let i = 0; i < data.queries.length; i++) {
    if (i % 2000 === 0) {
      ctx?.signal?.throwIfAborted();
      ctx?.progress?.({ phase: 'score', done: i, total: data.queries.length, label: preds.model });
    }
    const q = data.queries[i];
    const pi = join.predOf[i];
    const line = pi >= 0 ? preds.data.lines[pi] : undefined;
    if (!line) missing += 1;
    const targets = sliced.targets(q.category, q.source, q.level);
    let c: CaseRecord;
    if (q.task === 'R2T') {
      const r = scoreR2tQuery(q, line, opt);
      for (const s of targets) s.addR2t(r.correct, r.cer);
      one.reset().addR2t(r.correct, r.cer);
      c = r.record;
    } else {
      const size = sizeOf(q.image_path);
      const parsed = line ? readT2rChoice(opt.boxes, dialect?.bbox2d ?? 'qwen25vl', line, space, size, protocol.options, () => specRead(line, size)) : undefined;
      const r = scoreT2rQuery(q, line, opt, parsed);
      for (const s of targets) s.addT2r(r.result);
      one.reset().addT2r(r.result);
      if (taxonomy) {
        const { im, res } = r.classify();
        const fn = new Float64Array(tally.fn.length);
        const fp = new Float64Array(tally.fp.length);
        addCounts(im, res, fn, fp);
        for (let k = 0; k < fn.length; k++) tally.fn[k] += fn[k];
        for (let k = 0; k < fp.length; k++) tally.fp[k] += fp[k];
        tally.gt += im.nGt;
        tally.pred += im.nPred;
        tally.hits += r.result.tp;
        addCaseDeltas(macro.sum, (h, g, n) => caseF1(h, g, n).f1, r.result.tp, im.nGt, im.nPred, fn, fp);
        macro.cases += 1;
        applyClasses(res, r.record.gt, r.record.pred, classCounts, i * SLOTS);
      }
      if (r.unparseable) unparseable += 1;
      if (line) {
        t2rAnswers += 1;
        if (r.unparseable && looksLikeQwenBoxTokens(line.value)) tokenLike += 1;
      }
      if (parsed?.noSize) {
        if (parsed.rule === 'qwen2vl-tokens') tokensWithoutSize += 1;
        else dialectNoSize += 1;
        r.record.errors.push('no_image_size');
      }
      // The space check looks at boxes as the spec's parser reads them; a dialect reading has its own space.
      if (parsed && parsed.rule !== 'qwen2vl-tokens' && opt.boxes === 'default') spaceSamples.push(spaceSample(q.gtBoxes, parsed.boxes, space, size));
      c = r.record;
    }
    SliceStats.row(unitRows, i * SLICE_COLUMNS.length, one);
    c.image_file = ds.imageFiles.get(q.image_path) ?? null;
    const size = ds.imageSizes.get(q.image_path);
    if (size) {
      c.width = size.width;
      c.height = size.height;
    }
    placeShapes(c, q.image_path, toPixels);
    c.detail = { ...c.detail, coords: space };
    cases.push(c);
  }

  const warnings = [...preds.warnings.map((text) => ({ line: lineOf(text), text })), ...join.warnings]
    .sort((a, b) => a.line - b.line)
    .map((w) => w.text);
  // Answers in a dialect the diagnosis names a fitting reading for: the coords hint about the spec
  // parser's misreading of them (e.g. coords=abs for Qwen2.5-VL's resized pixels) would point elsewhere.
  const dialectSpeaks = dialect !== null && dialect.dialects.length > 0 && dialect.fit !== null;
  const spaceSaid = dialectSpeaks ? [] : spaceWarnings(ds, preds.data, space, opt, spaceSamples);
  warnings.push(...spaceSaid);
  // Lines whose own coord_type their boxes contradict, when the file-level check has not said it
  // already and no --option coords has set the space for the whole file (which sets lines' aside).
  const lineSpaces = opt.boxes === 'default' && opt.coords === 'auto' && spaceSaid.length === 0 && !dialectSpeaks ? contradictedLineSpaces(data, join, preds.data.lines, sizeOf, opt.iou, specRead) : null;
  if (lineSpaces) warnings.push(lineSpaces);
  // Plain boxes (no dialect marker) in the wrong space are the coordinate checks' to name
  // (coords=…): a second sentence naming another option for the same boxes would only confuse.
  if (dialect && dialect.dialects.length === 0 && dialect.current === 'default' && (spaceSaid.length > 0 || lineSpaces)) dialect = null;
  // The diagnosis names boxes=qwen2vl with both numbers; the older hint would say the same thing twice.
  if (!opt.qwen && tokenLike > 0 && tokenLike * 2 > t2rAnswers && dialect?.fit?.choice !== 'qwen2vl') {
    warnings.push(
      `${tokenLike} of ${t2rAnswers} T2R answers are unparseable and hold Qwen2-VL grounding boxes (<|box_start|>(x1,y1),(x2,y2)<|box_end|>, 0–1000 of the image): --option ${QWEN_OPTION}=true reads them`,
    );
  }
  if (tokensWithoutSize > 0) {
    warnings.push(
      `${tokensWithoutSize} T2R answers hold Qwen2-VL boxes (0–1000) on images whose size is unknown (missing or unreadable header): they cannot be placed in pixels and count as no answer (error no_image_size)`,
    );
  }
  if (dialect) warnings.push(dialect.text);
  if (dialectNoSize > 0) {
    warnings.push(
      `${dialectNoSize} T2R answers read with --option boxes=${opt.boxes} hold boxes that need the image's size, which is unknown (missing or unreadable header): they count as no answer (error no_image_size)`,
    );
  }
  return {
    model: preds.model,
    metrics: sliced.metrics(opt.average),
    counts: {
      cases: data.queries.length,
      skipped: data.badLines,
      malformed_lines: preds.counts.malformed_lines ?? 0,
      missing_predictions: missing,
      unknown_lines: join.unknown,
      duplicate_lines: join.duplicates,
      unparseable_outputs: unparseable,
      ...(preds.data.format === 'batch'
        ? { batch_lines: preds.counts.batch_lines ?? 0, failed_requests: preds.counts.failed_requests ?? 0, truncated_answers: preds.counts.truncated_answers ?? 0 }
        : {}),
    },
    warnings,
    cases,
    unitStats: { queries: { width: SLICE_COLUMNS.length, rows: unitRows } },
    settledOptions: { coords: space },
    ...(dialect ? { boxDialect: dialect } : {}),
    ...(taxonomy
      ? {
          diagnostics: {
            errors: { t2r: unitErrors(tally, f1Of, opt.average === 'macro' ? macro : undefined) },
            case_unit: 't2r',
            case_counts: classCounts,
            ...collectSuspectInputs(cases, classCounts),
          },
        }
      : {}),
  };
}

function lineOf(w: string): number {
  const m = /^line (\d+):/.exec(w);
  return m ? Number(m[1]) : 0;
}

function rawDetail(line: PredLine | undefined): Record<string, unknown> {
  if (!line) return {};
  return { line: line.line, output_field: line.field, raw_output: exportableRaw(line.value) };
}

export function scoreR2tQuery(
  q: Query,
  line: PredLine | undefined,
  opt: Pick<TabenchOptions, 'norm' | 'casefold'>,
): { correct: boolean; cer: number; record: CaseRecord } {
  const parsed = line ? parseR2t(line.value) : undefined;
  const predText = parsed?.text ?? '';
  const gtN = normalizeR2t(q.gtText, opt.norm, opt.casefold);
  const predN = normalizeR2t(predText, opt.norm, opt.casefold);
  const correct = gtN === predN;
  const dist = correct ? 0 : levenshtein(predN, gtN);
  const cer = dist / Math.max(1, codePointLength(gtN));
  const gt: Instance[] = [
    {
      id: 0,
      shape: q.queryBox ? { type: 'box', box: q.queryBox } : undefined,
      text: q.gtText,
      state: 'info',
      reason: 'the region the question asks about; its GT text is this instance’s text',
    },
  ];
  const pred: Instance[] = line
    ? [
        {
          id: 0,
          text: predText,
          state: correct ? 'tp' : 'fp',
          reason: correct ? 'exact match after normalisation' : `differs after normalisation: ${dist} edit(s), CER ${cer.toFixed(3)}`,
        },
      ]
    : [];
  return {
    correct,
    cer,
    record: {
      case_id: q.id,
      image_path: q.image_path,
      task: 'R2T',
      facets: facets(q),
      score: correct ? 1 : 0,
      outcome: correct ? 'pass' : 'fail',
      gt,
      pred,
      matches: correct && line ? [{ gt: 0, pred: 0 }] : [],
      errors: line ? [] : ['missing_prediction'],
      detail: {
        question: q.question,
        ...rawDetail(line),
        parse_rule: parsed ? parsed.rule : 'missing_prediction',
        parse_steps: parsed?.steps ?? [],
        gt_normalised: gtN,
        pred_normalised: predN,
        edit_distance: dist,
        cer,
        diff: correct || !diffFits(gtN, predN) ? undefined : charDiff(gtN, predN),
        query_box: q.queryBox,
      },
    },
  };
}

/**
 * A T2R answer's boxes in the scored space. With qwen2vl_boxes, a string answer holding Qwen2-VL
 * box tokens is read from them (0–1000 of the image: kept in rel1000, scaled by the image size
 * in abs — no size, no boxes, `noSize`); every other answer follows the spec's rules.
 */
export function readT2r(value: unknown, qwen: boolean, space: Space, size: { width: number; height: number } | null): T2rParse & { noSize?: boolean } {
  if (qwen && typeof value === 'string') {
    const { text, steps } = cleanModelOutput(value);
    const found = readQwenBoxTokens(text);
    if (found.length > 0) {
      const swapped: number[] = [];
      let boxes = found.map((b, i) => {
        const o = orderCorners(b);
        if (o !== b) swapped.push(i);
        return o;
      });
      if (space === 'abs') {
        if (!size) return { boxes: [], rule: 'qwen2vl-tokens', unparseable: false, swapped: [], steps, noSize: true };
        boxes = boxes.map((b) => rel1000ToPixels(b, size.width, size.height));
      }
      return { boxes, rule: 'qwen2vl-tokens', unparseable: false, swapped, steps };
    }
  }
  return parseT2r(value);
}

function spaceSample(gt: Box[], boxes: Box[], space: Space, size: { width: number; height: number } | null): SpaceSample {
  const alt = size ? boxes.map((b) => (space === 'abs' ? rel1000ToPixels(b, size.width, size.height) : pixelsToRel1000(b, size.width, size.height))) : null;
  return { gt, raw: boxes, scored: boxes, alt, size };
}

/** Says when the T2R boxes do not look like the space they are scored in (see geometry/coordSpace). */
function spaceWarnings(ds: TabenchDataset, preds: TabenchPredictions, space: Space, opt: TabenchOptions, samples: SpaceSample[]): string[] {
  const f = inspectSpace(samples, opt.iou);
  const from = opt.coords === 'auto' ? `by ${preds.spaceFrom}` : 'by --option coords';
  const out: string[] = [];
  const other: Space = space === 'abs' ? 'rel1000' : 'abs';
  const fix = ds.spaces[other]
    ? `score with --option coords=${other}`
    : `scoring them as ${other} needs ${BENCHMARK_FILE[other]}, which the dataset lacks`;
  const w =
    space === 'abs'
      ? pixelReadingWarning(f, `predicted T2R boxes (read as abs ${from})`, opt.iou, fix)
      : rel1000ReadingWarning(f, `predicted T2R boxes (${from})`, opt.iou, fix);
  if (w) out.push(w);
  if (space === 'rel1000' && f.unsized > 0) {
    out.push(
      `coordinate space: ${f.unsized} T2R answers are scored in rel1000 on images whose size is unknown or zero (image missing or header unreadable): their boxes are scored in 0–1000 but cannot be drawn or checked against the pixel reading`,
    );
  }
  return out;
}

export function scoreT2rQuery(
  q: Query,
  line: PredLine | undefined,
  opt: Pick<TabenchOptions, 'iou'>,
  read?: T2rParse,
): { result: T2rQueryResult; unparseable: boolean; record: CaseRecord; classify: () => ReturnType<typeof classifyBoxes> } {
  const t = opt.iou;
  const parsed = read ?? (line ? parseT2r(line.value) : undefined);
  const boxes = parsed?.boxes ?? [];
  const m = greedyMatch(q.gtBoxes, boxes, (iou) => iou >= t);
  const tp = m.pairs.length;
  const fp = boxes.length - tp;
  const fn = q.gtBoxes.length - tp;
  const prf = perQueryPRF(tp, q.gtBoxes.length, boxes.length);
  // QSR looks at any GT box, not at the greedy pairs.
  const qsr = QSR_K.map((k) => {
    for (let p = 0; p < Math.min(k, boxes.length); p++) if (m.predBest[p] >= t) return true;
    return false;
  }) as [boolean, boolean, boolean];
  const gt: Instance[] = q.gtBoxes.map((b, g) => {
    const partner = m.gtPartner[g];
    const inst: Instance = { id: g, shape: { type: 'box', box: b }, text: q.gtTexts[g], state: partner >= 0 ? 'tp' : 'fn', best_iou: m.gtBest[g] };
    if (partner >= 0) {
      inst.partner = partner;
      inst.iou = boxesIoU(m.pairs, g, partner);
      inst.reason = `matched prediction ${partner} at IoU ${formatIoU(inst.iou, t)} ≥ ${t}`;
    } else if (boxes.length === 0) inst.reason = 'no predicted box';
    else if (m.gtBest[g] < t) inst.reason = `best IoU ${formatIoU(m.gtBest[g], t)} < ${t}`;
    else inst.reason = `every prediction with IoU ≥ ${t} was matched to another GT box`;
    return inst;
  });
  const pred: Instance[] = boxes.map((b, p) => {
    const partner = m.predPartner[p];
    const inst: Instance = { id: p, shape: { type: 'box', box: b }, state: partner >= 0 ? 'tp' : 'fp', best_iou: m.predBest[p], attrs: { rank: p + 1 } };
    if (partner >= 0) {
      inst.partner = partner;
      inst.iou = boxesIoU(m.pairs, partner, p);
      inst.reason = `matched GT ${partner} at IoU ${formatIoU(inst.iou, t)} ≥ ${t}`;
    } else if (m.predBest[p] < t) inst.reason = `IoU ${formatIoU(m.predBest[p], t)} < ${t}`;
    else inst.reason = `duplicate: the GT box it overlaps at IoU ${formatIoU(m.predBest[p], t)} was matched to another prediction`;
    if (parsed?.swapped.includes(p)) inst.tags = ['corners_swapped'];
    return inst;
  });
  const errors: string[] = [];
  if (!line) errors.push('missing_prediction');
  else if (parsed?.unparseable) errors.push('unparseable_output');
  const outcome = fp === 0 && fn === 0 ? 'pass' : tp === 0 ? 'fail' : 'partial';
  return {
    result: { tp, fp, fn, ...prf, qsr },
    unparseable: parsed?.unparseable ?? false,
    // errors.md: "would match" is the protocol's pair rule, IoU ≥ t; the query's classes with their causes.
    classify: () => classifyBoxes({ gt: q.gtBoxes, pred: boxes, gtPartner: m.gtPartner, predPartner: m.predPartner }, t, false, true),
    record: {
      case_id: q.id,
      image_path: q.image_path,
      task: 'T2R',
      facets: facets(q),
      score: prf.f1,
      outcome,
      gt,
      pred,
      matches: m.pairs.map((p) => ({ gt: p.gt, pred: p.pred, iou: p.iou })),
      errors,
      detail: {
        question: q.question,
        ...rawDetail(line),
        parse_rule: parsed ? parsed.rule : 'missing_prediction',
        parse_steps: parsed?.steps ?? [],
        tp,
        fp,
        fn,
        precision: prf.precision,
        recall: prf.recall,
        f1: prf.f1,
        qsr: { 1: qsr[0], 3: qsr[1], 5: qsr[2] },
        iou_threshold: t,
      },
    },
  };
}

// charDiff keeps a full (|gt|+1)·(|pred|+1) table: a runaway answer of a million characters
// against a paragraph would need gigabytes, so such a case shows the CER without the diff.
const MAX_DIFF_CELLS = 20_000_000;
function diffFits(gt: string, pred: string): boolean {
  return (gt.length + 1) * (pred.length + 1) <= MAX_DIFF_CELLS;
}

function boxesIoU(pairs: readonly { gt: number; pred: number; iou: number }[], g: number, p: number): number {
  return pairs.find((x) => x.gt === g && x.pred === p)?.iou ?? 0;
}

function facets(q: Query): CaseRecord['facets'] {
  const f: CaseRecord['facets'] = { task: q.task };
  if (q.category !== undefined) f.category = q.category;
  if (q.source !== undefined) f.source_dataset = q.source;
  if (q.level !== undefined) f.annotation_level = q.level;
  return f;
}

type PixelMapper = (imagePath: string, b: Box) => Box | null;

/** abs boxes are pixels already; rel1000 boxes scale by the image's own size (null when unknown). */
function pixelMapper(ds: TabenchDataset, space: Space): PixelMapper {
  if (space === 'abs') return (_p, b) => b;
  return (p, b) => {
    const s = ds.imageSizes.get(p);
    if (!s) return null;
    return [(b[0] * s.width) / 1000, (b[1] * s.height) / 1000, (b[2] * s.width) / 1000, (b[3] * s.height) / 1000];
  };
}

/**
 * Case records draw in pixels: the file-space box is kept in `attrs.box` and the shape is the
 * pixel box; without a known image size a rel1000 instance has no shape.
 */
function placeShapes(c: CaseRecord, imagePath: string, toPixels: PixelMapper): void {
  for (const inst of [...c.gt, ...c.pred]) {
    if (inst.shape?.type !== 'box') continue;
    const fileBox = inst.shape.box;
    const px = toPixels(imagePath, fileBox);
    if (px === fileBox) continue;
    inst.attrs = { ...inst.attrs, box: fileBox };
    if (px) inst.shape = { type: 'box', box: px };
    else delete inst.shape;
  }
}
