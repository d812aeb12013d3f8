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
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  /** Ground-truth corrections made in the viewer (kept beside the original GT, never over it). */
  corrections?: unknown[];
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
