/**
 * Case and instance reviews in IndexedDB, keyed by (dataset fingerprint, model, case_id). Every
 * call that changes something is one confirmed edit: one transaction (row + undo entry), written
 * the moment it is made, stamped with `updated_at`. A review that says nothing (unreviewed, no
 * note, no tags, no instance reviews) is not stored, so "has a row" = "the user left a review".
 */
import { REVIEW_STATUSES, type InstanceReview, type ReviewStatus } from '../core/qa';
import { normalizeReview } from './reviewShape';
import { editRow, now, redo as redoEdit, undo as undoEdit, historyDepth } from './history';
import { getDb, type BenchlensDB, type HistoryRow, type ReviewRow } from './schema';

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

function blank(fingerprint: string, model: string, case_id: string): ReviewRow {
  return { fingerprint, model, case_id, status: 'unreviewed', updated_at: now() };
}

export async function getReview(fingerprint: string, model: string, caseId: string, db: BenchlensDB = getDb()): Promise<ReviewRow | undefined> {
  return db.reviews.get([fingerprint, model, caseId]);
}

function describe(p: ReviewPatch): { label: string; coalesce?: string } {
  if (p.status !== undefined) return { label: `status → ${p.status}` };
  if (p.note !== undefined) return { label: 'note', coalesce: 'note' };
  if (p.tags !== undefined) return { label: 'tags' };
  return { label: 'review' };
}

/** Changes the case-level review; returns the stored row (undefined when it became empty). */
export async function putReview(
  fingerprint: string,
  model: string,
  caseId: string,
  patch: ReviewPatch,
  db: BenchlensDB = getDb(),
): Promise<ReviewRow | undefined> {
  const { label, coalesce } = describe(patch);
  const row = await editRow<ReviewRow>(
    db,
    'reviews',
    fingerprint,
    [fingerprint, model, caseId],
    (before) => {
      const base = before ?? blank(fingerprint, model, caseId);
      const next: ReviewRow = { ...base, updated_at: now() };
      if (patch.status !== undefined) next.status = patch.status;
      if (patch.note !== undefined) next.note = patch.note;
      if (patch.tags !== undefined) next.tags = patch.tags;
      if (patch.author !== undefined) next.author = patch.author;
      return normalizeReview(next);
    },
    { label: `${caseId}: ${label}`, coalesce: coalesce && `${coalesce}:${model}:${caseId}` },
  );
  return row ?? undefined;
}

/** Changes the review of one GT instance or prediction inside a case review. */
export async function putInstanceReview(
  fingerprint: string,
  model: string,
  caseId: string,
  patch: InstancePatch,
  db: BenchlensDB = getDb(),
): Promise<ReviewRow | undefined> {
  const what = patch.status !== undefined ? `status → ${patch.status}` : patch.note !== undefined ? 'note' : 'tags';
  const row = await editRow<ReviewRow>(
    db,
    'reviews',
    fingerprint,
    [fingerprint, model, caseId],
    (before) => {
      const base = before ?? blank(fingerprint, model, caseId);
      const list = [...(base.instances ?? [])];
      const i = list.findIndex((r) => r.side === patch.side && r.id === patch.id);
      const cur: InstanceReview = i >= 0 ? { ...list[i] } : { side: patch.side, id: patch.id, status: 'unreviewed' };
      if (patch.status !== undefined) cur.status = patch.status;
      if (patch.note !== undefined) cur.note = patch.note;
      if (patch.tags !== undefined) cur.tags = patch.tags;
      if (i >= 0) list[i] = cur;
      else list.push(cur);
      return normalizeReview({ ...base, instances: list, updated_at: now() });
    },
    {
      label: `${caseId} ${patch.side} ${patch.id}: ${what}`,
      coalesce: patch.note !== undefined && patch.status === undefined ? `note:${model}:${caseId}:${patch.side}:${patch.id}` : undefined,
    },
  );
  return row ?? undefined;
}

export async function deleteReview(fingerprint: string, model: string, caseId: string, db: BenchlensDB = getDb()): Promise<void> {
  await editRow<ReviewRow>(db, 'reviews', fingerprint, [fingerprint, model, caseId], () => null, { label: `${caseId}: review deleted` });
}

export async function listByDataset(fingerprint: string, db: BenchlensDB = getDb()): Promise<ReviewRow[]> {
  return db.reviews.where('fingerprint').equals(fingerprint).toArray();
}

export type StatusCounts = Record<ReviewStatus, number>;

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(REVIEW_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/**
 * Stored reviews per status (optionally for one model). "unreviewed" here counts stored rows
 * whose case status is unreviewed (only instance reviews); the case list adds the cases with no
 * row at all, which it alone knows.
 */
export async function countsByStatus(fingerprint: string, model?: string, db: BenchlensDB = getDb()): Promise<StatusCounts> {
  const counts = emptyCounts();
  await db.reviews
    .where('fingerprint')
    .equals(fingerprint)
    .each((r) => {
      if (model === undefined || r.model === model) counts[r.status]++;
    });
  return counts;
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
