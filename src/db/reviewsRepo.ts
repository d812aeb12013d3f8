/**
 * Reviews in IndexedDB, keyed by (dataset fingerprint, subject, case_id) — the subject is what
 * the review is about: the GT ('gt') or one prediction set's content ('pred:<content>'), see
 * subjects.ts. Every call that changes something is one confirmed edit: one transaction (rows +
 * undo entry), written the moment it is made, stamped with `updated_at` and a new `rev`. A review
 * that says nothing is not stored, so "has a row" = "the user left a review".
 *
 * Two tabs: an edit may carry the base it was made from (`base`: the rev of the row the editor
 * showed and the field's value then). Inside the transaction, if the row changed since (another
 * rev) AND that field now holds a third value, the edit is refused with a ReviewConflictError
 * carrying both versions; nothing is written. A confirmed value is never overwritten by a stale one.
 *
 * Storage full: a write that fails is kept in memory (pendingReviews.ts), shown, exported and
 * retried; the functions here then resolve with the in-memory row instead of rejecting.
 */
import Dexie from 'dexie';
import { isGtStatus, REVIEW_STATUSES, type InstanceReview, type ReviewStatus } from '../core/qa';
import { mergeReviews, normalizeReview } from './reviewShape';
import { announce } from './changes';
import { now, redo as redoEdit, undo as undoEdit, historyDepth, type EditOptions, type ComputeRows, type RowRef } from './history';
import { getDb, type BenchlensDB, type HistoryRow, type ReviewRow } from './schema';
import { GT_SUBJECT, legacySubject } from './subjects';
import { liveRow, liveRows, runReviewEdits } from './pendingReviews';

export { normalizeReview };

export interface ReviewPatch {
  status?: ReviewStatus;
  /** '' clears the note. */
  note?: string;
  /** [] clears the tags. */
  tags?: string[];
  author?: string;
}

export interface InstancePatch {
  side: 'gt' | 'pred';
  id: number;
  status?: ReviewStatus;
  note?: string;
  tags?: string[];
}

/** What the editor showed when the user began this edit: the row's rev and the field's value. */
export interface EditBase {
  rev: string | null;
  value: unknown;
}

export interface EditOpts {
  base?: EditBase;
  /** The model name shown (kept on the row as a label; never part of the key). */
  model?: string;
}

/** Another tab confirmed a different value of this field since this edit's base. Nothing was written. */
export class ReviewConflictError extends Error {
  constructor(
    readonly field: string,
    /** The stored value now (the other tab's). */
    readonly theirs: unknown,
    /** The value this edit wanted. */
    readonly mine: unknown,
    readonly row: ReviewRow | null,
  ) {
    super(`another tab changed the ${field} of this review`);
    this.name = 'ReviewConflictError';
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The base-revision check, run inside the transaction on the row as stored. */
function checkBase(field: string, rev: string | null, base: EditBase | undefined, current: unknown, next: unknown, row: ReviewRow | null): void {
  if (!base || rev === base.rev) return;
  if (same(current, base.value) || same(current, next)) return;
  throw new ReviewConflictError(field, current, next, row);
}

function blank(fingerprint: string, subject: string, case_id: string): ReviewRow {
  return { fingerprint, subject, case_id, status: 'unreviewed', updated_at: now() };
}

function keyOf(fingerprint: string, subject: string, caseId: string): [string, string, string] {
  return [fingerprint, subject, caseId];
}

/** The stored review (what IndexedDB holds). */
export async function getReview(fingerprint: string, subject: string, caseId: string, db: BenchlensDB = getDb()): Promise<ReviewRow | undefined> {
  return db.subjectReviews.get(keyOf(fingerprint, subject, caseId));
}

/** The review as this tab shows it: an unsaved (in-memory) value wins over the stored one. */
export async function getLiveReview(fingerprint: string, subject: string, caseId: string, db: BenchlensDB = getDb()): Promise<ReviewRow | undefined> {
  const live = liveRow(db, fingerprint, subject, caseId);
  if (live !== undefined) return live ?? undefined;
  return getReview(fingerprint, subject, caseId, db);
}

function describe(p: ReviewPatch): { label: string; coalesce?: string; field: keyof ReviewPatch } {
  if (p.status !== undefined) return { label: `status → ${p.status}`, field: 'status' };
  if (p.note !== undefined) return { label: 'note', coalesce: 'note', field: 'note' };
  if (p.tags !== undefined) return { label: 'tags', field: 'tags' };
  return { label: 'review', field: 'author' };
}

function applyPatch(base: ReviewRow, patch: ReviewPatch, model?: string): ReviewRow {
  const next: ReviewRow = { ...base, updated_at: now() };
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.note !== undefined) next.note = patch.note;
  if (patch.tags !== undefined) next.tags = patch.tags;
  if (patch.author !== undefined) next.author = patch.author;
  if (model !== undefined) next.model = model;
  return next;
}

function reviewCompute(fingerprint: string, subject: string, caseId: string, patch: ReviewPatch, opts: EditOpts, withBase: boolean): ComputeRows {
  const { field } = describe(patch);
  return ([stored]) => {
    const before = stored as ReviewRow | null;
    const cur = before ?? blank(fingerprint, subject, caseId);
    const value = field === 'status' ? cur.status : field === 'tags' ? (cur.tags ?? []) : field === 'note' ? (cur.note ?? '') : cur.author;
    if (withBase) checkBase(field, before?.rev ?? null, opts.base, value, patch[field], before);
    return [normalizeReview(applyPatch(cur, patch, subject === GT_SUBJECT ? undefined : opts.model))];
  };
}

function ref(fingerprint: string, subject: string, caseId: string): RowRef {
  return { table: 'reviews', key: keyOf(fingerprint, subject, caseId) };
}

/** Changes one subject's case-level review; returns the row as shown (undefined when it became empty). */
export async function putReview(
  fingerprint: string,
  subject: string,
  caseId: string,
  patch: ReviewPatch,
  db: BenchlensDB = getDb(),
  opts: EditOpts = {},
): Promise<ReviewRow | undefined> {
  const { label, coalesce } = describe(patch);
  const [row] = await runReviewEdits(db, fingerprint, [ref(fingerprint, subject, caseId)], (withBase) => reviewCompute(fingerprint, subject, caseId, patch, opts, withBase), {
    label: `${caseId}: ${label}`,
    coalesce: coalesce && `${coalesce}:${subject}:${caseId}`,
  });
  return (row as ReviewRow | null) ?? undefined;
}

/**
 * Sets the status a case shows for one model. A GT status (GT wrong / GT missing) is the GT's:
 * stored on the dataset's GT review, and the model's own status is cleared so the choice shows.
 * Any other status is the model's own (on its prediction review). "Unreviewed" clears what is
 * shown: the model's own status, or, when it had none, the GT status. Both rows in one transaction.
 */
export async function setCaseStatus(
  fingerprint: string,
  predSubjectKey: string,
  caseId: string,
  status: ReviewStatus,
  db: BenchlensDB = getDb(),
  opts: EditOpts = {},
): Promise<{ gt?: ReviewRow; pred?: ReviewRow }> {
  const compute = (withBase: boolean): ComputeRows => (rows) => {
    const [gtRow, predRow] = rows as (ReviewRow | null)[];
    const shown = predRow && predRow.status !== 'unreviewed' ? predRow.status : (gtRow?.status ?? 'unreviewed');
    if (withBase) checkBase('status', statusRev(gtRow, predRow), opts.base, shown, status, predRow);
    const gt = gtRow ?? blank(fingerprint, GT_SUBJECT, caseId);
    const pred = predRow ?? blank(fingerprint, predSubjectKey, caseId);
    const set = (r: ReviewRow, s: ReviewStatus, model?: string) => normalizeReview(applyPatch(r, { status: s }, model));
    if (isGtStatus(status)) return [set(gt, status), pred.status === 'unreviewed' ? predRow : set(pred, 'unreviewed', opts.model)];
    if (status !== 'unreviewed') return [gtRow, set(pred, status, opts.model)];
    if (pred.status !== 'unreviewed') return [gtRow, set(pred, 'unreviewed', opts.model)];
    return [gt.status === 'unreviewed' ? gtRow : set(gt, 'unreviewed'), predRow];
  };
  const rows = await runReviewEdits(db, fingerprint, [ref(fingerprint, GT_SUBJECT, caseId), ref(fingerprint, predSubjectKey, caseId)], compute, {
    label: `${caseId}: status → ${status}`,
  });
  return { gt: (rows[0] as ReviewRow | null) ?? undefined, pred: (rows[1] as ReviewRow | null) ?? undefined };
}

/** The rev a case status is based on: both rows it is read from. */
export function statusRev(gt: ReviewRow | null | undefined, pred: ReviewRow | null | undefined): string {
  return `${gt?.rev ?? ''}|${pred?.rev ?? ''}`;
}

function instanceCompute(fingerprint: string, subject: string, caseId: string, patch: InstancePatch, opts: EditOpts, withBase: boolean): ComputeRows {
  const field = patch.status !== undefined ? 'status' : patch.note !== undefined ? 'note' : 'tags';
  return ([stored]) => {
    const before = stored as ReviewRow | null;
    const base = before ?? blank(fingerprint, subject, caseId);
    const list = [...(base.instances ?? [])];
    const i = list.findIndex((r) => r.side === patch.side && r.id === patch.id);
    const cur: InstanceReview = i >= 0 ? { ...list[i] } : { side: patch.side, id: patch.id, status: 'unreviewed' };
    const value = field === 'status' ? cur.status : field === 'note' ? (cur.note ?? '') : (cur.tags ?? []);
    if (withBase) checkBase(`${patch.side} ${patch.id} ${field}`, before?.rev ?? null, opts.base, value, patch[field], before);
    if (patch.status !== undefined) cur.status = patch.status;
    if (patch.note !== undefined) cur.note = patch.note;
    if (patch.tags !== undefined) cur.tags = patch.tags;
    if (i >= 0) list[i] = cur;
    else list.push(cur);
    const next: ReviewRow = { ...base, instances: list, updated_at: now() };
    if (opts.model !== undefined && subject !== GT_SUBJECT) next.model = opts.model;
    return [normalizeReview(next)];
  };
}

/**
 * Changes the review of one GT instance (stored on the dataset's GT review) or one prediction
 * (stored on the prediction set's review, `predSubjectKey`).
 */
export async function putInstanceReview(
  fingerprint: string,
  predSubjectKey: string,
  caseId: string,
  patch: InstancePatch,
  db: BenchlensDB = getDb(),
  opts: EditOpts = {},
): Promise<ReviewRow | undefined> {
  const subject = patch.side === 'gt' ? GT_SUBJECT : predSubjectKey;
  const what = patch.status !== undefined ? `status → ${patch.status}` : patch.note !== undefined ? 'note' : 'tags';
  const [row] = await runReviewEdits(db, fingerprint, [ref(fingerprint, subject, caseId)], (withBase) => instanceCompute(fingerprint, subject, caseId, patch, opts, withBase), {
    label: `${caseId} ${patch.side} ${patch.id}: ${what}`,
    coalesce: patch.note !== undefined && patch.status === undefined ? `note:${subject}:${caseId}:${patch.side}:${patch.id}` : undefined,
  });
  return (row as ReviewRow | null) ?? undefined;
}

export async function deleteReview(fingerprint: string, subject: string, caseId: string, db: BenchlensDB = getDb()): Promise<void> {
  await runReviewEdits(db, fingerprint, [ref(fingerprint, subject, caseId)], () => () => [null], { label: `${caseId}: review deleted` });
}

/** Every stored review of a dataset (GT and every prediction set). */
export async function listByDataset(fingerprint: string, db: BenchlensDB = getDb()): Promise<ReviewRow[]> {
  return db.subjectReviews.where('fingerprint').equals(fingerprint).toArray();
}

/** listByDataset with this tab's unsaved reviews in place of the stored ones (what is shown and exported). */
export async function listLive(fingerprint: string, db: BenchlensDB = getDb()): Promise<ReviewRow[]> {
  return liveRows(db, fingerprint, await listByDataset(fingerprint, db));
}

/**
 * Moves version-1 reviews made under a model *name* to the content of the file now loaded under
 * that name (once: the 'name:' rows are gone afterwards). A prediction review already there for
 * the same case is merged with it, nothing dropped. Not an undoable edit (it only re-keys).
 */
export async function claimLegacyReviews(fingerprint: string, model: string, predSubjectKey: string, db: BenchlensDB = getDb()): Promise<number> {
  const from = legacySubject(model);
  let moved = 0;
  await db.transaction('rw', db.subjectReviews, async () => {
    const rows = await db.subjectReviews.where('[fingerprint+subject+case_id]').between([fingerprint, from, Dexie.minKey], [fingerprint, from, Dexie.maxKey]).toArray();
    for (const r of rows) {
      const have = await db.subjectReviews.get(keyOf(fingerprint, predSubjectKey, r.case_id));
      const moving: ReviewRow = { ...r, subject: predSubjectKey };
      await db.subjectReviews.put(have ? mergeReviews(have, moving) : moving);
      await db.subjectReviews.delete(keyOf(fingerprint, from, r.case_id));
      moved++;
    }
  });
  if (moved) announce({ fingerprint, table: 'reviews' });
  return moved;
}

export type StatusCounts = Record<ReviewStatus, number>;

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(REVIEW_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

export function undo(fingerprint: string, db: BenchlensDB = getDb()): Promise<HistoryRow[]> {
  return undoEdit(db, fingerprint);
}

export function redo(fingerprint: string, db: BenchlensDB = getDb()): Promise<HistoryRow[]> {
  return redoEdit(db, fingerprint);
}

export function undoDepth(fingerprint: string, db: BenchlensDB = getDb()) {
  return historyDepth(db, fingerprint);
}

export type { EditOptions };
