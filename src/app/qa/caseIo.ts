/**
 * Reviews in and out of case_analysis.jsonl (`benchlens.case/1`, field `qa`). Pure functions: the
 * worker writes the lines, these give it the stored reviews as `qa` values (qaByKey), and read
 * reviews back out of a file made here or elsewhere.
 *
 * Canonical form: `qa` is always written with the same key order and the same normalisation
 * (empty fields dropped, instance reviews sorted gt-then-pred by id, corrections sorted by case,
 * gt_id, id), so export → clear storage → import → export gives byte-identical `qa` fields.
 *
 * GT corrections belong to a case, not to a model; they ride in `qa.corrections` of every line of
 * their case (with their stable id), and import de-duplicates them by id. The GT review of a case
 * (GT wrong / GT missing, its note and tags) rides likewise in `qa.gt` of every line of the case,
 * its GT-instance reviews in `qa.instances` (side "gt"); `qa.status` is what the case shows for
 * that line's model (its own status, else the GT's). A line's prediction review carries
 * `qa.prediction`, the content fingerprint of the prediction file, so import finds it whatever
 * the model is called now. A file without `qa.gt` (written before reviews had owners) is split
 * the way stored version-1 reviews were (reviewShape.splitMixed).
 *
 * Import never overwrites silently: a (model, case) reviewed differently here and in the file is
 * a conflict for the user to resolve (keep mine / take theirs / merge); identical reviews are
 * no-ops; a file line that cannot be used costs that line and is listed as "line N: why".
 */
import { CASE_SCHEMA } from '../../core/caseExport';
import type { GtCorrection, Shape } from '../../core/model';
import { isGtStatus, isReviewStatus, qaKey, type GtQa, type InstanceReview, type QaState, type ReviewStatus } from '../../core/qa';
import { combineReview, normalizeReview, reviewContent, splitMixed, type CaseReview } from '../../db/reviewShape';
import type { CorrectionRow, ReviewRow } from '../../db/schema';
import { contentOf, GT_SUBJECT, legacySubject, predSubject } from '../../db/subjects';

/** A correction as exported in `qa.corrections`. */
export interface ExportedCorrection extends GtCorrection {
  id: string;
  updated_at?: string;
}

function canonicalShape(s: Shape): Shape {
  return s.type === 'box' ? { type: 'box', box: [s.box[0], s.box[1], s.box[2], s.box[3]] } : { type: 'polygon', points: [...s.points] };
}

export function correctionToExport(r: CorrectionRow): ExportedCorrection {
  const c = r.correction;
  const out: ExportedCorrection = { id: r.id, case_id: r.case_id, gt_id: c.gt_id };
  if (c.shape) out.shape = canonicalShape(c.shape);
  if (c.text !== undefined) out.text = c.text;
  if (c.care !== undefined) out.care = c.care;
  if (c.deleted !== undefined) out.deleted = c.deleted;
  out.updated_at = r.updated_at;
  return out;
}

function compareCorrections(a: CorrectionRow, b: CorrectionRow): number {
  if (a.case_id !== b.case_id) return a.case_id < b.case_id ? -1 : 1;
  const ga = a.correction.gt_id ?? Number.MAX_SAFE_INTEGER;
  const gb = b.correction.gt_id ?? Number.MAX_SAFE_INTEGER;
  if (ga !== gb) return ga - gb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function gtQa(gt: ReviewRow): GtQa {
  const out: GtQa = { status: gt.status };
  if (gt.note) out.note = gt.note;
  if (gt.tags) out.tags = [...gt.tags];
  out.updated_at = gt.updated_at;
  if (gt.author) out.author = gt.author;
  return out;
}

/** The canonical `qa` of one (model, case): its GT and prediction reviews; null when there is nothing to say. */
export function buildQa(review: CaseReview | undefined, corrections: readonly CorrectionRow[] = []): QaState | null {
  const gt = review?.gt ? normalizeReview(review.gt) : null;
  const pred = review?.pred ? normalizeReview(review.pred) : null;
  if (!gt && !pred && corrections.length === 0) return null;
  const shown = combineReview(review?.model ?? '', review?.case_id ?? '', gt ?? undefined, pred ?? undefined);
  const qa: QaState = { status: shown?.status ?? 'unreviewed' };
  if (pred?.note) qa.note = pred.note;
  if (pred?.tags) qa.tags = [...pred.tags];
  if (shown?.instances) qa.instances = shown.instances.map((i) => ({ ...i }));
  if (corrections.length) qa.corrections = [...corrections].sort(compareCorrections).map(correctionToExport);
  if (pred) qa.updated_at = pred.updated_at;
  if (pred?.author) qa.author = pred.author;
  if (gt) qa.gt = gtQa(gt);
  const content = pred ? contentOf(pred.subject) : null;
  if (content) qa.prediction = content;
  return qa;
}

export function serializeQa(qa: QaState): string {
  return JSON.stringify(qa);
}

/**
 * The `qa` the worker writes into the export (src/worker/caseAnalysisBlob.ts): for every loaded
 * model (`contents`: name → content fingerprint) with a prediction review of a case, the case's
 * canonical qa under qaKey(model, case_id); for every case with a GT review or GT corrections,
 * those alone under its case_id (the lines of models that did not review it). A line found under
 * neither gets no `qa`. The worker writes `qa` as the line's last field, so a line is byte for
 * byte the unreviewed line with `,"qa":<serializeQa(qa)>` spliced in.
 */
export function qaByKey(reviews: readonly ReviewRow[], corrections: readonly CorrectionRow[], contents: Readonly<Record<string, string>> = {}): Map<string, QaState> {
  const byCase = new Map<string, CorrectionRow[]>();
  for (const c of corrections) {
    const list = byCase.get(c.case_id) ?? [];
    list.push(c);
    byCase.set(c.case_id, list);
  }
  const gt = new Map<string, ReviewRow>();
  const pred = new Map<string, ReviewRow[]>();
  for (const r of reviews) {
    if (r.subject === GT_SUBJECT) gt.set(r.case_id, r);
    else pred.set(r.subject, [...(pred.get(r.subject) ?? []), r]);
  }
  const out = new Map<string, QaState>();
  for (const caseId of new Set([...byCase.keys(), ...gt.keys()])) {
    const qa = buildQa(combineReview('', caseId, gt.get(caseId), undefined), byCase.get(caseId));
    if (qa) out.set(caseId, qa);
  }
  for (const [model, content] of Object.entries(contents)) {
    if (!content) continue;
    for (const r of pred.get(predSubject(content)) ?? []) {
      const qa = buildQa(combineReview(model, r.case_id, gt.get(r.case_id), r), byCase.get(r.case_id));
      if (qa) out.set(qaKey(model, r.case_id), qa);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Import

export interface ReviewConflict {
  kind: 'review';
  /** What the review is about, as shown: "GT" or the model name of the line. */
  model: string;
  subject: string;
  case_id: string;
  mine: ReviewRow;
  theirs: ReviewRow;
}

export interface CorrectionConflict {
  kind: 'correction';
  case_id: string;
  id: string;
  mine: CorrectionRow;
  theirs: CorrectionRow;
}

export type ImportConflict = ReviewConflict | CorrectionConflict;

export interface ImportPlan {
  /** Reviews the file has and this browser does not: written as they are. */
  reviews: ReviewRow[];
  corrections: CorrectionRow[];
  /** Reviews / corrections identical on both sides. */
  unchanged: number;
  conflicts: ImportConflict[];
  /** "line N: why" for every line or field that was not used. */
  warnings: string[];
  /** Lines read (with or without qa). */
  lines: number;
}

export interface ImportInput {
  text: string;
  fingerprint: string;
  /** The benchmark of the open dataset; lines of another benchmark are skipped. */
  benchmark?: string;
  /** The open dataset's case ids; reviews of unknown cases are skipped (they would be orphans). */
  knownCaseIds?: ReadonlySet<string>;
  mine: readonly ReviewRow[];
  myCorrections: readonly CorrectionRow[];
  /** Time stamp for reviews that come without one. */
  now: string;
  /** Loaded models: name → content fingerprint (a line without `qa.prediction` is matched by name). */
  contents?: Readonly<Record<string, string>>;
}

function readTags(v: unknown, where: string, warnings: string[]): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) {
    warnings.push(`${where}: tags is not a list`);
    return undefined;
  }
  const ok = v.filter((t): t is string => typeof t === 'string');
  if (ok.length !== v.length) warnings.push(`${where}: ${v.length - ok.length} non-text tag(s) dropped`);
  return ok;
}

function readInstance(v: unknown, where: string, warnings: string[]): InstanceReview | null {
  const o = v as Partial<InstanceReview> | null;
  if (!o || typeof o !== 'object' || (o.side !== 'gt' && o.side !== 'pred') || !Number.isInteger(o.id) || !isReviewStatus(o.status)) {
    warnings.push(`${where}: an instance review without a valid side, id and status was dropped`);
    return null;
  }
  const out: InstanceReview = { side: o.side, id: o.id!, status: o.status };
  if (typeof o.note === 'string') out.note = o.note;
  const tags = readTags(o.tags, where, warnings);
  if (tags) out.tags = tags;
  return out;
}

function isNumberList(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

function readShape(v: unknown): Shape | null {
  const o = v as { type?: unknown; box?: unknown; points?: unknown } | null;
  if (!o || typeof o !== 'object') return null;
  if (o.type === 'box' && isNumberList(o.box) && o.box.length === 4) return { type: 'box', box: [o.box[0], o.box[1], o.box[2], o.box[3]] };
  if (o.type === 'polygon' && isNumberList(o.points) && o.points.length >= 6 && o.points.length % 2 === 0) return { type: 'polygon', points: [...o.points] };
  return null;
}

function readCorrection(v: unknown, caseId: string, fingerprint: string, where: string, now: string, warnings: string[]): CorrectionRow | null {
  const o = v as Partial<ExportedCorrection> | null;
  if (!o || typeof o !== 'object' || typeof o.id !== 'string' || !o.id || !(o.gt_id === null || Number.isInteger(o.gt_id))) {
    warnings.push(`${where}: a correction without an id and gt_id was dropped`);
    return null;
  }
  const c: GtCorrection = { case_id: caseId, gt_id: o.gt_id as number | null };
  if (o.shape !== undefined) {
    const s = readShape(o.shape);
    if (!s) {
      warnings.push(`${where}: correction ${o.id} has an unusable shape and was dropped`);
      return null;
    }
    c.shape = s;
  }
  if (typeof o.text === 'string') c.text = o.text;
  if (typeof o.care === 'boolean') c.care = o.care;
  if (typeof o.deleted === 'boolean') c.deleted = o.deleted;
  return { id: o.id, fingerprint, case_id: caseId, correction: c, updated_at: typeof o.updated_at === 'string' ? o.updated_at : now };
}

function readStatus(raw: unknown, where: string, field: string, warnings: string[]): { status: ReviewStatus; foreign: string | null } {
  // A status this app does not know (another tool's "flagged") is not dropped with its note: the
  // review comes in as unreviewed with the foreign status kept as a tag, and the line says so.
  if (isReviewStatus(raw)) return { status: raw, foreign: null };
  if (typeof raw === 'string' && raw.trim()) {
    const foreign = `status:${raw.trim()}`;
    warnings.push(`${where}: ${field} ${JSON.stringify(raw)} is not one of the review statuses; kept as tag "${foreign}"`);
    return { status: 'unreviewed', foreign };
  }
  warnings.push(`${where}: ${field} ${JSON.stringify(raw)} is not one of the review statuses; read as unreviewed`);
  return { status: 'unreviewed', foreign: null };
}

/**
 * Turns an unknown `qa` value into the stored reviews it holds — the case's GT review and the
 * line's prediction review (under `predSubjectKey`), each null when it says nothing — and its
 * corrections.
 */
export function readQa(
  v: unknown,
  fingerprint: string,
  model: string,
  caseId: string,
  where: string,
  now: string,
  warnings: string[],
  predSubjectKey: string = legacySubject(model),
): { gt: ReviewRow | null; pred: ReviewRow | null; corrections: CorrectionRow[] } {
  const o = v as Partial<QaState> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) {
    warnings.push(`${where}: qa is not an object`);
    return { gt: null, pred: null, corrections: [] };
  }
  const { status, foreign } = readStatus(o.status, where, 'qa.status', warnings);
  const tags0 = readTags(o.tags, where, warnings);
  const tags = tags0 || foreign ? [...(tags0 ?? []), ...(foreign ? [foreign] : [])] : undefined;
  let instances: InstanceReview[] | undefined;
  if (o.instances !== undefined) {
    if (Array.isArray(o.instances)) instances = o.instances.map((x) => readInstance(x, where, warnings)).filter((x): x is InstanceReview => x !== null);
    else warnings.push(`${where}: qa.instances is not a list`);
  }
  const note = typeof o.note === 'string' ? o.note : undefined;
  const author = typeof o.author === 'string' ? o.author : undefined;
  const updated = typeof o.updated_at === 'string' ? o.updated_at : now;
  let gt: ReviewRow | null;
  let pred: ReviewRow | null;
  const g = o.gt as Partial<GtQa> | undefined;
  if (g !== undefined && g !== null && typeof g === 'object' && !Array.isArray(g)) {
    const gs = readStatus(g.status, where, 'qa.gt.status', warnings);
    const gtTags = readTags(g.tags, where, warnings);
    gt = normalizeReview({
      fingerprint,
      subject: GT_SUBJECT,
      case_id: caseId,
      status: gs.status,
      ...(typeof g.note === 'string' ? { note: g.note } : {}),
      ...(gtTags || gs.foreign ? { tags: [...(gtTags ?? []), ...(gs.foreign ? [gs.foreign] : [])] } : {}),
      instances: (instances ?? []).filter((i) => i.side === 'gt'),
      updated_at: typeof g.updated_at === 'string' ? g.updated_at : now,
      ...(typeof g.author === 'string' ? { author: g.author } : {}),
    });
    pred = normalizeReview({
      fingerprint,
      subject: predSubjectKey,
      case_id: caseId,
      status: isGtStatus(status) ? 'unreviewed' : status,
      ...(note ? { note } : {}),
      ...(tags ? { tags } : {}),
      instances: (instances ?? []).filter((i) => i.side === 'pred'),
      updated_at: updated,
      ...(author ? { author } : {}),
      model,
    });
  } else {
    if (g !== undefined) warnings.push(`${where}: qa.gt is not an object`);
    ({ gt, pred } = splitMixed({ status, note, tags, instances, updated_at: updated, author }, fingerprint, predSubjectKey, caseId, model));
  }
  const corrections: CorrectionRow[] = [];
  if (o.corrections !== undefined) {
    if (Array.isArray(o.corrections)) {
      for (const c of o.corrections) {
        const r = readCorrection(c, caseId, fingerprint, where, now, warnings);
        if (r) corrections.push(r);
      }
    } else warnings.push(`${where}: qa.corrections is not a list`);
  }
  return { gt, pred, corrections };
}

/** Content equality of two reviews, ignoring when they were made. */
export function sameReview(a: ReviewRow, b: ReviewRow): boolean {
  return reviewContent(a) === reviewContent(b);
}

export function sameCorrection(a: CorrectionRow, b: CorrectionRow): boolean {
  return JSON.stringify(correctionToExport({ ...a, updated_at: '' })) === JSON.stringify(correctionToExport({ ...b, updated_at: '' }));
}

function reviewMapKey(subject: string, caseId: string): string {
  return `${subject}\u0000${caseId}`;
}

/** Reads a case_analysis.jsonl and sorts its reviews into new / unchanged / conflicting. */
export function planImport(input: ImportInput): ImportPlan {
  const { fingerprint, now } = input;
  const plan: ImportPlan = { reviews: [], corrections: [], unchanged: 0, conflicts: [], warnings: [], lines: 0 };
  const mine = new Map(input.mine.map((r) => [reviewMapKey(r.subject, r.case_id), r]));
  const contents = input.contents ?? {};
  const myCorr = new Map(input.myCorrections.map((c) => [c.id, c]));
  const seenReviews = new Map<string, { line: number; row: ReviewRow }>();
  const seenCorr = new Map<string, CorrectionRow>();

  input.text.split('\n').forEach((raw, i) => {
    const t = raw.trim();
    if (!t) return;
    const where = `line ${i + 1}`;
    let o: { schema?: unknown; benchmark?: unknown; model?: unknown; case_id?: unknown; qa?: unknown };
    try {
      o = JSON.parse(t);
    } catch {
      plan.warnings.push(`${where}: not valid JSON`);
      return;
    }
    if (!o || typeof o !== 'object' || o.schema !== CASE_SCHEMA) {
      plan.warnings.push(`${where}: not a ${CASE_SCHEMA} line`);
      return;
    }
    if (typeof o.model !== 'string' || typeof o.case_id !== 'string') {
      plan.warnings.push(`${where}: missing case_id or model`);
      return;
    }
    plan.lines++;
    if (input.benchmark && o.benchmark !== input.benchmark) {
      plan.warnings.push(`${where}: benchmark ${JSON.stringify(o.benchmark)} is not the open dataset's (${input.benchmark})`);
      return;
    }
    if (o.qa === undefined) return;
    if (input.knownCaseIds && !input.knownCaseIds.has(o.case_id)) {
      plan.warnings.push(`${where}: case ${JSON.stringify(o.case_id)} is not in the open dataset; its review was skipped`);
      return;
    }
    const declared = (o.qa as { prediction?: unknown } | null)?.prediction;
    const subject =
      typeof declared === 'string' && declared ? predSubject(declared) : contents[o.model] ? predSubject(contents[o.model]) : legacySubject(o.model);
    const { gt, pred, corrections } = readQa(o.qa, fingerprint, o.model, o.case_id, where, now, plan.warnings, subject);

    for (const c of corrections) {
      const dup = seenCorr.get(c.id);
      if (dup) {
        if (!sameCorrection(dup, c)) plan.warnings.push(`${where}: correction ${c.id} differs from an earlier line's copy; the first was kept`);
        continue;
      }
      seenCorr.set(c.id, c);
      const have = myCorr.get(c.id);
      if (!have) plan.corrections.push(c);
      else if (sameCorrection(have, c)) plan.unchanged++;
      else plan.conflicts.push({ kind: 'correction', case_id: c.case_id, id: c.id, mine: have, theirs: c });
    }

    for (const review of [gt, pred]) {
      if (!review) continue;
      const key = reviewMapKey(review.subject, o.case_id);
      const earlier = seenReviews.get(key);
      if (earlier !== undefined) {
        // The GT review rides on every line of its case: a copy that differs is reported.
        if (review.subject === GT_SUBJECT) {
          if (!sameReview(earlier.row, review)) plan.warnings.push(`${where}: the GT review of ${o.case_id} differs from line ${earlier.line}'s; the first was kept`);
        } else plan.warnings.push(`${where}: a second review of ${o.model} / ${o.case_id} (first on line ${earlier.line}) was skipped`);
        continue;
      }
      seenReviews.set(key, { line: i + 1, row: review });
      const have = mine.get(key);
      if (!have) plan.reviews.push(review);
      else if (sameReview(have, review)) plan.unchanged++;
      else plan.conflicts.push({ kind: 'review', model: review.subject === GT_SUBJECT ? 'GT' : o.model, subject: review.subject, case_id: o.case_id, mine: have, theirs: review });
    }
  });
  return plan;
}

export type Resolution = 'mine' | 'theirs' | 'merge';

function uniq<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

/**
 * What a resolved conflict stores. "merge" keeps my status, joins the two notes (both kept, in
 * full), unites the tags, and takes their instance reviews where I have none for that instance.
 * A correction conflict has no merge: "merge" keeps mine.
 */
export function resolveConflict(c: ImportConflict, choice: Resolution, now: string): ReviewRow | CorrectionRow {
  if (choice === 'mine') return c.mine;
  if (choice === 'theirs') return c.theirs;
  if (c.kind === 'correction') return c.mine;
  const { mine, theirs } = c;
  const notes = uniq([mine.note, theirs.note].filter((n): n is string => !!n));
  const instances = [...(mine.instances ?? [])];
  for (const t of theirs.instances ?? []) if (!instances.some((m) => m.side === t.side && m.id === t.id)) instances.push(t);
  const merged: ReviewRow = {
    ...mine,
    status: mine.status === 'unreviewed' ? theirs.status : mine.status,
    note: notes.join('\n---\n') || undefined,
    tags: uniq([...(mine.tags ?? []), ...(theirs.tags ?? [])]),
    instances,
    updated_at: now,
  };
  return normalizeReview(merged) ?? { ...mine, updated_at: now };
}
