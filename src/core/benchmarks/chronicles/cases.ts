/**
 * One CaseRecord per (image, task): what the viewer draws and what case_analysis.jsonl carries.
 * Spotting predictions live in 0–1000 units; they are mapped back to the image's pixels here so
 * every shape is in the dataset's own coordinates.
 */
import type { CaseRecord, Instance, Match, Outcome } from '../../model';
import { IOU_THRESHOLD, TASK_KEYS } from './constants';
import type { GtRow } from './gt';
import { isUnkChar, officialIoU, readPredItem, recNorm, type SpottingJudgement } from './judge';
import type { TaskOutcome } from './score';

const fmt = (x: number) => (Math.round(x * 100) / 100).toFixed(2);

export function outcomeOf(score: number, error: string | null): Outcome {
  if (error) return 'fail';
  if (score === 1) return 'pass';
  if (score === 0) return 'fail';
  return 'partial';
}

/** Structural equality of two JSON values (the stored extract vs a fresh extraction). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k, i) => k === kb[i] && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function buildCase(row: GtRow, o: TaskOutcome, reextract: boolean): CaseRecord {
  const rec = o.record;
  const ex = o.extraction;
  const stored = rec ? (rec.extract ?? null) : null;
  const differs = !!ex && !!rec && !sameJson(stored, ex.extract);
  const detail: Record<string, unknown> = {
    task_key: TASK_KEYS[o.task],
    answer: rec && typeof rec.answer === 'string' ? rec.answer : null,
    thinking: rec && typeof rec.thinking === 'string' ? rec.thinking : null,
    record_error: rec && rec.error !== undefined ? rec.error : null,
    judged: reextract ? 'reextracted' : 'stored',
    extract: o.judged,
    ...(reextract ? { stored_extract: stored } : {}),
    extraction: ex
      ? {
          ok: ex.ok,
          path: ex.path,
          thinking: ex.thinking,
          reason: ex.reason ?? null,
          // Only when it is not the extract judged above (kept small: one copy per case).
          ...(differs ? { extract: ex.extract } : {}),
        }
      : null,
    // Stored extract vs what the official extractor gives today (e.g. files made by other tools).
    extract_differs: differs,
    ambiguous: !!ex?.ambiguous,
    in_mean: o.task !== 'spotting' || !!o.spotting,
  };
  const errors = o.error ? [o.error] : [];
  let gt: Instance[] = [];
  let pred: Instance[] = [];
  let matches: Match[] = [];

  switch (o.task) {
    case 'classification': {
      const j = o.classification;
      Object.assign(detail, { gt: j?.gt ?? null, pred: j?.pred ?? null });
      gt = [{ id: 0, text: row.font_type, state: o.score === 1 ? 'tp' : 'fn' }];
      if (j) {
        const ok = o.score === 1;
        pred = [{ id: 0, text: j.pred, state: ok ? 'tp' : 'fp', reason: ok ? undefined : `${j.pred || '(empty)'} ≠ ${j.gt}` }];
        if (ok) matches = [{ gt: 0, pred: 0 }];
      }
      break;
    }
    case 'parsing': {
      const j = o.parsing;
      Object.assign(detail, {
        edit_distance: j?.edit_distance ?? null,
        len_pred: j?.len_pred ?? null,
        len_gt: j?.len_gt ?? null,
        gt_norm: j?.gt_norm ?? null,
        pred_norm: j?.pred_norm ?? null,
      });
      gt = [{ id: 0, text: typeof row.raw.annotation === 'string' ? row.raw.annotation : '', state: o.score === 1 ? 'tp' : 'fn' }];
      if (j) {
        const text = o.judged && typeof (o.judged as Record<string, unknown>).extracted_text === 'string'
          ? ((o.judged as Record<string, unknown>).extracted_text as string)
          : '';
        pred = [{ id: 0, text, score: j.score, state: o.score === 1 ? 'tp' : 'fp', reason: `edit distance ${j.edit_distance} over max(${j.len_pred}, ${j.len_gt})` }];
        matches = [{ gt: 0, pred: 0 }];
      }
      break;
    }
    case 'recognition': {
      const j = o.recognition;
      // A recomputed target (the record had no gt_char) is drawn and named as a stored one is.
      const t = o.target;
      const box = t ? t.bbox : rec?.target_bbox_xyxy;
      const gtChar = t ? t.char : typeof rec?.gt_char === 'string' ? rec.gt_char : null;
      Object.assign(detail, {
        gt: j?.gt ?? null,
        pred: j?.pred ?? null,
        gt_char: gtChar,
        pred_char: j?.pred ?? null,
        target_index: t ? t.index : (rec?.target_index ?? null),
        target_source: t ? 'recomputed' : gtChar !== null ? 'stored' : null,
        // The two strings the judge compared (recNorm), so a case's text comparison agrees with
        // its score: pass ⇔ gt_norm === pred_norm (the target box's text alone is no GT text).
        gt_norm: j ? recNorm(j.gt) : null,
        pred_norm: j ? recNorm(j.pred) : null,
      });
      const target: Instance = {
        id: 0,
        text: gtChar ?? undefined,
        state: 'info',
        reason: t
          ? 'the red box the model was asked about (recomputed from the GT as infer.py picks it: the answer stored none)'
          : 'the red box the model was asked about',
      };
      if (Array.isArray(box) && box.length === 4 && box.every((v) => typeof v === 'number')) {
        target.shape = { type: 'box', box: [box[0], box[1], box[2], box[3]] };
      }
      gt = [target];
      if (j) {
        const ok = o.score === 1;
        pred = [{ id: 0, text: j.pred, state: ok ? 'tp' : 'fp', reason: ok ? undefined : `${j.pred || '(empty)'} ≠ ${j.gt || '(no gt_char)'}` }];
        if (ok) matches = [{ gt: 0, pred: 0 }];
      }
      break;
    }
    case 'spotting': {
      const j = o.spotting;
      Object.assign(detail, {
        tp: j?.spotting.tp ?? null,
        fp: j?.spotting.fp ?? null,
        fn: j?.spotting.fn ?? null,
        detection: j ? j.detection : null,
        detection_f1: j?.detection_f1 ?? null,
        spotting_f1: j?.spotting_f1 ?? null,
        n_pred: j?.n_pred ?? null,
        n_gt: j?.n_gt ?? null,
      });
      ({ gt, pred, matches } = spottingInstances(row, j, o.judged, o.error));
      break;
    }
  }

  return {
    case_id: `${row.image_path}#${o.task}`,
    image_path: row.image_path,
    image_file: row.image_file,
    task: o.task,
    facets: {
      script: row.script.key,
      script_name: row.script.name,
      group: row.script.group,
      task: o.task,
      ...(detail.ambiguous ? { flag: 'ambiguous' } : {}),
    },
    score: o.score,
    outcome: outcomeOf(o.score, o.error),
    gt,
    pred,
    matches,
    errors,
    detail,
    ...(row.width > 0 && row.height > 0 ? { width: row.width, height: row.height } : {}),
  };
}

function spottingInstances(
  row: GtRow,
  j: SpottingJudgement | undefined,
  judged: unknown,
  error: string | null,
): { gt: Instance[]; pred: Instance[]; matches: Match[] } {
  const W = row.width;
  const H = row.height;
  const gt: Instance[] = row.chars.map((c, i) => ({
    id: i,
    shape: { type: 'box', box: [c.bbox[0], c.bbox[1], c.bbox[2], c.bbox[3]] },
    text: c.char,
    state: isUnkChar(c.char) ? 'unk' : 'fn',
    reason: isUnkChar(c.char) ? 'unknown character: left out of Spotting (kept for Detection)' : error ? `not judged (${error})` : undefined,
    attrs: { index: c.index, form: c.form },
  }));
  if (!j) return { gt, pred: [], matches: [] };

  const items: unknown[] =
    judged && typeof judged === 'object' && Array.isArray((judged as Record<string, unknown>).items)
      ? ((judged as Record<string, unknown>).items as unknown[])
      : [];
  const toPx = (b: readonly number[]): [number, number, number, number] => [
    (b[0] * W) / 1000,
    (b[1] * H) / 1000,
    (b[2] * W) / 1000,
    (b[3] * H) / 1000,
  ];
  // judged-pred index → instance id (the item's position in the stored list)
  const predId = j.predIndex;
  const pred: Instance[] = items.map((it, k) => {
    const r = readPredItem(it);
    if ('skip' in r) return { id: k, state: 'ignored', reason: `the judge skips this item: ${r.skip}` };
    return {
      id: k,
      text: r.item.char,
      state: isUnkChar(r.item.char) ? 'unk' : 'fp',
      reason: isUnkChar(r.item.char) ? 'unknown character: left out of Spotting (kept for Detection)' : undefined,
      ...(W > 0 && H > 0 ? { shape: { type: 'box' as const, box: toPx(r.item.bbox) } } : {}),
      attrs: { bbox_1000: r.item.bbox },
    };
  });

  // Detection state for every item (UNK included), as a diagnostic beside Spotting.
  const detGt = new Map<number, number>();
  const detPred = new Map<number, number>();
  for (const p of j.detMatch.pairs) {
    detGt.set(p.gt, predId[p.pred]);
    detPred.set(predId[p.pred], p.gt);
  }
  gt.forEach((g, i) => (g.attrs = { ...g.attrs, detection: detGt.has(i) ? 'tp' : 'fn' }));
  pred.forEach((p) => {
    if (p.state !== 'ignored') p.attrs = { ...p.attrs, detection: detPred.has(p.id) ? 'tp' : 'fp' };
  });

  const matches: Match[] = [];
  for (const p of j.spotMatch.pairs) {
    const gi = j.spotGtIndex[p.gt];
    const pi = predId[j.spotPredIndex[p.pred]];
    gt[gi].state = 'tp';
    gt[gi].partner = pi;
    gt[gi].iou = p.iou;
    gt[gi].reason = `IoU ${fmt(p.iou)} ≥ ${IOU_THRESHOLD}, same character`;
    pred[pi].state = 'tp';
    pred[pi].partner = gi;
    pred[pi].iou = p.iou;
    pred[pi].reason = gt[gi].reason;
    matches.push({ gt: gi, pred: pi, iou: p.iou });
  }

  // Why each remaining one missed: its best counterpart in the 0–1000 space.
  const gts = j.gts1000;
  if (gts.length === 0 && W <= 0) {
    for (const p of pred) if (p.state === 'fp') p.reason = 'no GT boxes: the GT row has no width/height';
  }
  pred.forEach((p) => {
    if (p.state !== 'fp') return;
    const item = j.preds[predId.indexOf(p.id)];
    let best = -1;
    let bi = -1;
    gts.forEach((g, gi) => {
      if (isUnkChar(g.char)) return;
      const iou = officialIoU(item.bbox, g.bbox);
      if (iou > best) {
        best = iou;
        bi = gi;
      }
    });
    if (bi < 0) {
      p.reason ??= 'no known GT character to match';
      return;
    }
    p.best_iou = best;
    p.partner = bi;
    const g = gts[bi];
    if (best < IOU_THRESHOLD) p.reason = `IoU ${fmt(best)} < ${IOU_THRESHOLD} with the nearest GT (${g.char})`;
    else if (g.char !== item.char) p.reason = `char ${item.char} ≠ ${g.char} (IoU ${fmt(best)})`;
    else p.reason = `duplicate: GT ${bi} (${g.char}) is matched by another prediction`;
  });
  gt.forEach((g, gi) => {
    if (g.state !== 'fn') return;
    let best = -1;
    let pi = -1;
    j.preds.forEach((item, k) => {
      if (isUnkChar(item.char)) return;
      const iou = officialIoU(item.bbox, gts[gi]?.bbox ?? [0, 0, 0, 0]);
      if (iou > best) {
        best = iou;
        pi = predId[k];
      }
    });
    if (pi < 0) {
      g.reason = gts.length === 0 ? 'not judged: the GT row has no width/height' : 'no prediction';
      return;
    }
    g.best_iou = best;
    const p = pred[pi];
    if (best < IOU_THRESHOLD) g.reason = `IoU ${fmt(best)} < ${IOU_THRESHOLD} with the nearest prediction (${p.text})`;
    else if (p.text !== g.text) g.reason = `char ${p.text} ≠ ${g.text} (IoU ${fmt(best)})`;
    else g.reason = `its best prediction went to another GT character`;
  });
  return { gt, pred, matches };
}
