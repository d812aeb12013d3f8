/**
 * The normal form of a stored review (pure: no Dexie), shared by the repository, the migration
 * and the import/export code so all agree on what "the same review" is, and on how a case's GT
 * review and one model's prediction review make the one review a case shows for that model.
 */
import { isGtStatus, type InstanceReview, type ReviewStatus } from '../core/qa';
import type { ReviewRow } from './schema';
import { GT_SUBJECT } from './subjects';

function cleanTags(tags: readonly string[] | undefined): string[] | undefined {
  if (!tags) return undefined;
  const out: string[] = [];
  for (const t of tags) {
    const s = t.trim();
    if (s && !out.includes(s)) out.push(s);
  }
  return out.length ? out : undefined;
}

function cleanInstance(r: InstanceReview): InstanceReview | null {
  const out: InstanceReview = { side: r.side, id: r.id, status: r.status };
  if (r.note) out.note = r.note;
  const tags = cleanTags(r.tags);
  if (tags) out.tags = tags;
  return out.status === 'unreviewed' && !out.note && !out.tags ? null : out;
}

export function sortInstances(list: InstanceReview[]): InstanceReview[] {
  return list.sort((a, b) => (a.side === b.side ? a.id - b.id : a.side === 'gt' ? -1 : 1));
}

/**
 * Drops empty fields; null when the review says nothing at all. Key order is fixed. A GT row
 * keeps only GT statuses and GT-side instances, a prediction row only the others (what a
 * subject can be about).
 */
export function normalizeReview(r: ReviewRow): ReviewRow | null {
  const gt = r.subject === GT_SUBJECT;
  const status: ReviewStatus = gt && !isGtStatus(r.status) ? 'unreviewed' : r.status;
  const out: ReviewRow = { fingerprint: r.fingerprint, subject: r.subject, case_id: r.case_id, status, updated_at: r.updated_at };
  if (r.note) out.note = r.note;
  const tags = cleanTags(r.tags);
  if (tags) out.tags = tags;
  const inst = sortInstances(
    (r.instances ?? [])
      .filter((i) => !r.subject.startsWith('pred:') || i.side === 'pred')
      .filter((i) => !gt || i.side === 'gt')
      .map(cleanInstance)
      .filter((x): x is InstanceReview => x !== null),
  );
  if (inst.length) out.instances = inst;
  if (r.author) out.author = r.author;
  if (r.model) out.model = r.model;
  if (r.rev) out.rev = r.rev;
  if (out.status === 'unreviewed' && !out.note && !out.tags && !out.instances) return null;
  return out;
}

/** The fields of a review that are its content (not its key, time, author, label or rev). */
export function reviewContent(r: ReviewRow | null | undefined): string {
  if (!r) return 'null';
  const n = normalizeReview(r);
  if (!n) return 'null';
  return JSON.stringify([n.status, n.note ?? '', n.tags ?? [], n.instances ?? []]);
}

/** What one case shows for one model: its GT review and its prediction review, together. */
export interface CaseReview {
  model: string;
  case_id: string;
  /** The model's own status when it has one, else the GT status. */
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  updated_at?: string;
  author?: string;
  gt?: ReviewRow;
  pred?: ReviewRow;
}

export function combineReview(model: string, caseId: string, gt: ReviewRow | undefined, pred: ReviewRow | undefined): CaseReview | undefined {
  if (!gt && !pred) return undefined;
  const out: CaseReview = { model, case_id: caseId, status: pred && pred.status !== 'unreviewed' ? pred.status : (gt?.status ?? 'unreviewed') };
  if (pred?.note) out.note = pred.note;
  if (pred?.tags) out.tags = [...pred.tags];
  const inst = [...(gt?.instances ?? []), ...(pred?.instances ?? [])].map((i) => ({ ...i }));
  if (inst.length) out.instances = sortInstances(inst);
  const times = [gt?.updated_at, pred?.updated_at].filter((t): t is string => !!t).sort();
  if (times.length) out.updated_at = times[times.length - 1];
  const author = pred?.author ?? gt?.author;
  if (author) out.author = author;
  if (gt) out.gt = gt;
  if (pred) out.pred = pred;
  return out;
}

/** A review in the version-1 shape (one row per model and case, GT and prediction mixed). */
export interface MixedReview {
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  updated_at: string;
  author?: string;
}

/**
 * Splits a version-1 review (or an imported `qa` without a `gt` part) into what is about the GT
 * and what is about the prediction: a GT status takes the case note and tags with it (they were
 * written about the GT); GT-side instance reviews go to the GT, prediction-side ones stay.
 */
export function splitMixed(
  r: MixedReview,
  fingerprint: string,
  predSubjectKey: string,
  caseId: string,
  model?: string,
): { gt: ReviewRow | null; pred: ReviewRow | null } {
  const gtStatus = isGtStatus(r.status);
  const base = { fingerprint, case_id: caseId, updated_at: r.updated_at, ...(r.author ? { author: r.author } : {}) };
  const gt: ReviewRow = {
    ...base,
    subject: GT_SUBJECT,
    status: gtStatus ? r.status : 'unreviewed',
    ...(gtStatus && r.note ? { note: r.note } : {}),
    ...(gtStatus && r.tags ? { tags: r.tags } : {}),
    instances: (r.instances ?? []).filter((i) => i.side === 'gt'),
  };
  const pred: ReviewRow = {
    ...base,
    subject: predSubjectKey,
    status: gtStatus ? 'unreviewed' : r.status,
    ...(!gtStatus && r.note ? { note: r.note } : {}),
    ...(!gtStatus && r.tags ? { tags: r.tags } : {}),
    instances: (r.instances ?? []).filter((i) => i.side === 'pred'),
    ...(model ? { model } : {}),
  };
  return { gt: normalizeReview(gt), pred: normalizeReview(pred) };
}

function joinNotes(a?: string, b?: string): string | undefined {
  const notes = [...new Set([a, b].filter((n): n is string => !!n))];
  return notes.length ? notes.join('\n---\n') : undefined;
}

/**
 * Two reviews of one subject and case made apart (two models' GT parts in version 1, a retried
 * write): nothing is dropped — the newer status, both notes (joined), all tags, and per instance
 * the newer review with both notes.
 */
export function mergeReviews(a: ReviewRow, b: ReviewRow): ReviewRow {
  const [older, newer] = a.updated_at <= b.updated_at ? [a, b] : [b, a];
  const inst = new Map<string, InstanceReview>();
  for (const i of older.instances ?? []) inst.set(`${i.side}:${i.id}`, { ...i });
  for (const i of newer.instances ?? []) {
    const k = `${i.side}:${i.id}`;
    const o = inst.get(k);
    inst.set(k, o ? { ...i, status: i.status === 'unreviewed' ? o.status : i.status, note: joinNotes(o.note, i.note), tags: [...new Set([...(o.tags ?? []), ...(i.tags ?? [])])] } : { ...i });
  }
  const merged: ReviewRow = {
    ...newer,
    status: newer.status === 'unreviewed' ? older.status : newer.status,
    note: joinNotes(older.note, newer.note),
    tags: [...new Set([...(older.tags ?? []), ...(newer.tags ?? [])])],
    instances: [...inst.values()],
  };
  const author = newer.author ?? older.author;
  if (author) merged.author = author;
  return normalizeReview(merged) ?? newer;
}
