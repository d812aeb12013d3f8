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
