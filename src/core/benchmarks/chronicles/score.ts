/**
 * Judging one model: every (image, task) of the images in its results file, as `judge.py` does,
 * then the official summary (summarize.py) over the per-row scores.
 */
import type { CaseRecord, LoadedPredictions, ModelResult, Protocol, RunContext } from '../../model';
import { TASK_KEYS, type TaskId } from './constants';
import { buildCase } from './cases';
import { EXTRACTORS, type Extraction } from './extract';
import type { ChroniclesDataset, GtRow } from './gt';
import {
  judgeClassification,
  judgeParsing,
  judgeRecognition,
  judgeSpotting,
  pyTypeName,
  type ParsingJudgement,
  type SpottingJudgement,
} from './judge';
import { addRow, aggregate, CELLS, newCellSums, type RowScore } from './aggregate';
import type { ChroniclesPreds } from './predictions';
import { isPlainObject, pyInt, pyText, pyTruthy } from './py';
import { DEFAULT_SEED, pickTarget, type RecognitionTarget } from './recognitionTarget';
import { ChroniclesErrors } from './errors';
import { SLOTS } from '../../errors/boxes';
import { collectSuspectInputs } from '../../errors/suspects';

export interface TaskOutcome {
  task: TaskId;
  score: number;
  /** no_infer, no_extract, no_gt, or `judge_error: …` */
  error: string | null;
  record: Record<string, unknown> | null;
  /** The extract that was judged (stored, or re-extracted with reextract=true). */
  judged: unknown;
  /** What the official extractor makes of the raw answer now (always computed, for the viewer). */
  extraction: Extraction | null;
  classification?: { gt: string; pred: string };
  parsing?: ParsingJudgement;
  recognition?: { gt: string; pred: string };
  /** The Recognition target judged against when it was recomputed (the record had no gt_char). */
  target?: RecognitionTarget;
  spotting?: SpottingJudgement;
}

/**
 * Where a Recognition answer's target comes from (option `recognition_target`): `stored` = the
 * official rule, only the record's `gt_char` (none → 0, no_gt); `recompute` = the record's
 * `gt_char`, else the target infer.py picks, recomputed from the GT; `auto` (default) = `stored`
 * for records infer.py wrote, `recompute` for the others (batch outputs, other tools' answers).
 */
export type TargetMode = 'auto' | 'stored' | 'recompute';

/** The keys infer.py writes on every Recognition record it makes (a skipped one has `error`). */
const INFER_KEYS = ['gt_char', 'target_bbox_xyxy', 'target_index', 'sample_key', 'seed', 'error', 'skipped'];

/**
 * Whether a Recognition record is in the official layout, which keeps the official rule: it
 * names its target as infer.py does (a batch custom_id with a target index does too), or it
 * holds a stored `extract` (a results.jsonl record, judged as the official judge judges it).
 * Not so: batch outputs without a target index, and other tools' raw answers (no extract).
 */
export function fromInferPy(rec: Record<string, unknown>): boolean {
  if (INFER_KEYS.some((k) => k in rec)) return true;
  return rec.source !== 'batch' && 'extract' in rec;
}

/** The target to judge a Recognition record without gt_char against, or null for the official no_gt. */
function recomputedTarget(row: GtRow, rec: Record<string, unknown>, mode: TargetMode): RecognitionTarget | null {
  if (pyText(rec.gt_char) !== '') return null;
  if (mode === 'stored' || (mode === 'auto' && fromInferPy(rec))) return null;
  if (!row.referring) return null;
  const seed = pyInt(rec.seed);
  return pickTarget(row.referring, seed ?? DEFAULT_SEED);
}

/** `(extract or {})` followed by `.get`: a truthy non-object raises in the official judge. */
function asObject(extract: unknown): Record<string, unknown> {
  if (!pyTruthy(extract)) return {};
  if (isPlainObject(extract)) return extract;
  throw new Error(`'${pyTypeName(extract)}' object has no attribute 'get'`);
}

export function judgeTask(row: GtRow, results: Record<string, unknown>, task: TaskId, reextract: boolean, targetMode: TargetMode = 'auto'): TaskOutcome {
  const rec = results[TASK_KEYS[task]];
  if (!isPlainObject(rec)) {
    return { task, score: 0, error: 'no_infer', record: null, judged: null, extraction: null };
  }
  const answer = typeof rec.answer === 'string' ? rec.answer : '';
  const extraction = EXTRACTORS[task](answer);
  const judged = reextract ? extraction.extract : (rec.extract ?? null);
  // Computed before the extract is checked: the viewer draws the red box of an unreadable answer too.
  const target = task === 'recognition' ? recomputedTarget(row, rec, targetMode) : null;
  const base = { task, record: rec, judged, extraction, ...(target ? { target } : {}) };
  if (judged === null) return { ...base, score: 0, error: 'no_extract' };
  try {
    const ex = asObject(judged);
    switch (task) {
      case 'classification': {
        const j = judgeClassification(row.raw.font_type, ex.category);
        return { ...base, score: j.score, error: null, classification: { gt: j.gt, pred: j.pred } };
      }
      case 'parsing': {
        const j = judgeParsing(row.raw.annotation, ex.extracted_text);
        return { ...base, score: j.score, error: null, parsing: j };
      }
      case 'recognition': {
        const j = judgeRecognition(target ? target.char : rec.gt_char, ex.char);
        return { ...base, score: j.score, error: j.error ?? null, recognition: { gt: j.gt, pred: j.pred } };
      }
      case 'spotting': {
        if (row.spotting_error) throw new Error(row.spotting_error);
        const j = judgeSpotting(row.chars, row.width, row.height, ex.items);
        return { ...base, score: j.score, error: null, spotting: j };
      }
    }
  } catch (e) {
    return { ...base, score: 0, error: `judge_error: ${(e as Error).message}` };
  }
}

/** Spotting / Detection leave out rows the judge could not score; no_gt is a judged 0. */
export function inMean(o: TaskOutcome): boolean {
  return o.task !== 'spotting' || !!o.spotting;
}

export function scoreModel(
  dataset: ChroniclesDataset,
  preds: LoadedPredictions<ChroniclesPreds>,
  protocol: Protocol,
  ctx?: RunContext,
): ModelResult {
  const reextract = protocol.options.reextract === true;
  const targetMode = (protocol.options.recognition_target ?? 'auto') as TargetMode;
  // Recognition records judged against a recomputed target, and those left at the official no_gt
  // though the GT has a target to recompute (said once per file, with the option that changes it).
  let recomputed = 0;
  let noGtRecomputable = 0;
  // Records whose stored sample_key is not the GT row's now: infer.py ran on another version of
  // the GT (its spotting fingerprint differs), so the stored target may not be this GT's.
  let otherGt = 0;
  let otherGtExample = '';
  const cases: CaseRecord[] = [];
  const scores: RowScore[] = [];
  let judgedRows = 0;
  let ambiguous = 0;
  let changed = 0;
  // Answers without a stored extract that the official extractor reads now (results files made by
  // other tools): the default judges them 0 as the official judge does, and says so.
  let noExtract = 0;
  let noExtractReadable = 0;
  const total = dataset.rows.length;
  const taxonomy = ctx?.diagnostics !== false;
  const spots: { c: CaseRecord; at: number; script: string; j: SpottingJudgement | undefined }[] = [];
  // Each image's cell sums then counts (CELLS order) for the uncertainty intervals, in row order.
  const unitWidth = 2 * CELLS.length;
  const unitRows = new Float64Array(dataset.rows.length * unitWidth);
  dataset.rows.forEach((row, i) => {
    if (i % 256 === 0) {
      ctx?.signal?.throwIfAborted();
      ctx?.progress?.({ phase: 'score', done: i, total, label: preds.model });
    }
    const pr = preds.data.rows.get(row.image_path);
    if (!pr) return;
    judgedRows++;
    const own = newCellSums(row.script);
    for (const task of row.tasks) {
      const o = judgeTask(row, pr.results, task, reextract, targetMode);
      if (o.target) recomputed++;
      else if (task === 'recognition' && o.record && row.referring && pyText(o.record.gt_char) === '') noGtRecomputable++;
      const storedKey = task === 'recognition' ? o.record?.sample_key : undefined;
      if (typeof storedKey === 'string' && row.referring && storedKey !== row.referring.sample_key) {
        if (otherGt++ === 0) otherGtExample = `${row.image_path}: stored "${storedKey}", the GT now "${row.referring.sample_key}"`;
      }
      if (o.record && (o.record.extract === undefined || o.record.extract === null)) {
        noExtract++;
        if (o.extraction?.extract) noExtractReadable++;
      }
      const c = buildCase(row, o, reextract);
      if (c.detail?.ambiguous) ambiguous++;
      if (c.detail?.extract_differs) changed++;
      if (task === 'spotting') spots.push({ c, at: cases.length, script: row.script.key, j: o.spotting });
      cases.push(c);
      const rs: RowScore = {
        script: row.script,
        task,
        score: o.score,
        detection: o.spotting?.detection_f1,
        inMean: inMean(o),
      };
      scores.push(rs);
      addRow(own, rs);
    }
    unitRows.set(own.sum, i * unitWidth);
    unitRows.set(own.n, i * unitWidth + CELLS.length);
  });
  ctx?.progress?.({ phase: 'score', done: total, total, label: preds.model });
  const errors = cases.filter((c) => c.errors.length > 0).length;
  const metrics = aggregate(scores);
  let diagnostics: ModelResult['diagnostics'];
  if (taxonomy) {
    const tx = new ChroniclesErrors();
    const counts = new Uint16Array(cases.length * SLOTS);
    for (const s of spots) tx.add(s.script, s.c, s.j, counts, s.at * SLOTS);
    diagnostics = {
      errors: tx.errors(metrics),
      case_unit: 'all/spotting',
      case_counts: counts,
      // Rows the judge did not score say nothing about the GT.
      ...collectSuspectInputs(cases, counts, (c) => c.task === 'spotting' && c.detail?.in_mean === true),
    };
  }
  return {
    model: preds.model,
    metrics,
    counts: {
      ...preds.counts,
      cases: cases.length,
      images: judgedRows,
      errors,
      ambiguous_classifications: ambiguous,
      extract_differs: changed,
      no_extract: noExtract,
    },
    warnings: [
      ...preds.warnings,
      ...targetWarnings(recomputed, noGtRecomputable, targetMode, preds.data.file),
      ...(otherGt > 0
        ? [
            `${otherGt} recognition records were made from another version of the GT (their sample_key is not the GT row's now; first ${otherGtExample}): their stored gt_char is judged as the official judge does, but the red box the model saw may not be this GT's (${preds.data.file})`,
          ]
        : []),
      ...(!reextract && noExtractReadable > 0
        ? [
            `${noExtractReadable} of ${noExtract} answers without a stored extract can be read by the official extractor now: the official default judges every answer without an extract 0 (no_extract); --option reextract=true judges them`,
          ]
        : []),
    ],
    cases,
    unitStats: { images: { width: unitWidth, rows: unitRows } },
    ...(diagnostics ? { diagnostics } : {}),
  };
}

function targetWarnings(recomputed: number, noGt: number, mode: TargetMode, file: string): string[] {
  const out: string[] = [];
  if (recomputed > 0) {
    out.push(
      `${recomputed} recognition answers carry no target character (gt_char): judged against the target infer.py picks, recomputed from the GT (prompts/referring.py, seed 42 unless the record names one)${mode === 'auto' ? '; --option recognition_target=stored scores them 0 (no_gt), as the official judge does' : ''} (${file})`,
    );
  }
  if (noGt > 0) {
    out.push(
      `${noGt} recognition records have no gt_char: scored 0 (no_gt), as the official judge does; --option recognition_target=recompute judges them against the target infer.py picks, recomputed from the GT (${file})`,
    );
  }
  return out;
}
