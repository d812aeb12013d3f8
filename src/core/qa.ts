/**
 * Review state ("qa") as exported in case_analysis.jsonl and restored on import. Kept in the
 * core so the export, the import and the database agree on one shape.
 */
export const REVIEW_STATUSES = ['unreviewed', 'ok', 'model_error', 'gt_wrong', 'gt_missing', 'ambiguous'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export interface InstanceReview {
  side: 'gt' | 'pred';
  id: number;
  status: ReviewStatus;
  note?: string;
  tags?: string[];
}

export interface QaState {
  /** What the case is, for this model: its own status if it has one, else the GT status. */
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  /** Ground-truth corrections made in the viewer (kept beside the original GT, never over it). */
  corrections?: unknown[];
  updated_at?: string;
  author?: string;
  /** The dataset's GT review of the case (the same on every model's line). */
  gt?: GtQa;
  /** Content fingerprint of the prediction file reviewed (import finds it by this, not by name). */
  prediction?: string;
}

/**
 * Statuses that are about the ground truth, not about a model: stored once per dataset (subject
 * 'gt') and shown for every model. The others (ok, model error, ambiguous) are about one
 * prediction set and stored under its content.
 */
export const GT_STATUSES: readonly ReviewStatus[] = ['gt_wrong', 'gt_missing'];

export function isGtStatus(s: ReviewStatus): boolean {
  return GT_STATUSES.includes(s);
}

/** The GT review of a case as exported in `qa.gt` (its instance reviews ride in `qa.instances`, side 'gt'). */
export interface GtQa {
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  updated_at?: string;
  author?: string;
}

export function isReviewStatus(v: unknown): v is ReviewStatus {
  return typeof v === 'string' && (REVIEW_STATUSES as readonly string[]).includes(v);
}

/**
 * The key of a review's `qa` (one model's result for a case): `${model}\t${case_id}`. A case's GT
 * corrections alone (for the models nobody reviewed it for) are under the bare `case_id`.
 */
export function qaKey(model: string, caseId: string): string {
  return `${model}\t${caseId}`;
}

/** qaKey → qa, built in the page from the stored reviews and merged into case lines by the worker. */
export type QaByKey = ReadonlyMap<string, QaState>;
