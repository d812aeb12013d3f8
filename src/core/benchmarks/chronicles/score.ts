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
import { isPlainObject, pyTruthy } from './py';
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
  spotting?: SpottingJudgement;
}

/** `(extract or {})` followed by `.get`: a truthy non-object raises in the official judge. */
function asObject(extract: unknown): Record<string, unknown> {
  if (!pyTruthy(extract)) return {};
  if (isPlainObject(extract)) return extract;
  throw new Error(`'${pyTypeName(extract)}' object has no attribute 'get'`);
}

export function judgeTask(row: GtRow, results: Record<string, unknown>, task: TaskId, reextract: boolean): TaskOutcome {
  const rec = results[TASK_KEYS[task]];
  if (!isPlainObject(rec)) {
    return { task, score: 0, error: 'no_infer', record: null, judged: null, extraction: null };
  }
  const answer = typeof rec.answer === 'string' ? rec.answer : '';
  const extraction = EXTRACTORS[task](answer);
  const judged = reextract ? extraction.extract : (rec.extract ?? null);
  const base = { task, record: rec, judged, extraction };
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
        const j = judgeRecognition(rec.gt_char, ex.char);
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
      const o = judgeTask(row, pr.results, task, reextract);
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
