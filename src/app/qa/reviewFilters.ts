/**
 * Pure helpers over the live review map (useReviews): the case list filters and counts by review
 * status, and the "next unreviewed" action walks the list's current order.
 */
import { REVIEW_STATUSES, type ReviewStatus } from '../../core/qa';
import type { CaseReview } from '../../db/reviewShape';

/** (model name, case) → what the case shows for that model (useReviews). */
export type ReviewMap = ReadonlyMap<string, CaseReview>;
export type StatusCounts = Record<ReviewStatus, number>;

/** The map key of a (model, case) review. */
export function reviewKey(model: string, caseId: string): string {
  return `${model}\u0000${caseId}`;
}

/** A case with no stored review is unreviewed. */
export function statusOf(reviews: ReviewMap, model: string, caseId: string): ReviewStatus {
  return reviews.get(reviewKey(model, caseId))?.status ?? 'unreviewed';
}

/** Counts per status over the given cases (all of them: cases without a review count as unreviewed). */
export function countStatuses(reviews: ReviewMap, model: string, caseIds: Iterable<string>): StatusCounts {
  const counts = Object.fromEntries(REVIEW_STATUSES.map((s) => [s, 0])) as StatusCounts;
  for (const id of caseIds) counts[statusOf(reviews, model, id)]++;
  return counts;
}

/** The cases whose status is in `statuses` (an empty set keeps everything), in the given order. */
export function filterByStatus(caseIds: readonly string[], model: string, reviews: ReviewMap, statuses: ReadonlySet<ReviewStatus>): string[] {
  if (statuses.size === 0) return [...caseIds];
  return caseIds.filter((id) => statuses.has(statusOf(reviews, model, id)));
}

/**
 * The next unreviewed case after `current` in the list's order, wrapping around; null when every
 * case in the list has a status. `current` itself comes last (it may be the only one left).
 */
export function nextUnreviewed(order: readonly string[], current: string | null, model: string, reviews: ReviewMap): string | null {
  const n = order.length;
  if (n === 0) return null;
  const start = current === null ? -1 : order.indexOf(current);
  for (let k = 1; k <= n; k++) {
    const id = order[(start + k + n) % n];
    if (statusOf(reviews, model, id) === 'unreviewed') return id;
  }
  return null;
}
