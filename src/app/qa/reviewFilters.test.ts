import { describe, expect, it } from 'vitest';
import type { CaseReview } from '../../db/reviewShape';
import { countStatuses, filterByStatus, nextUnreviewed, reviewKey, statusOf } from './reviewFilters';

const row = (model: string, case_id: string, status: CaseReview['status']): CaseReview => ({ model, case_id, status, updated_at: 't' });
const reviews = new Map([row('m', 'b', 'ok'), row('m', 'c', 'gt_wrong'), row('other', 'a', 'ok')].map((r) => [reviewKey(r.model, r.case_id), r]));
const order = ['a', 'b', 'c', 'd'];

describe('review filters', () => {
  it('treats a case without a review as unreviewed, per model', () => {
    expect(statusOf(reviews, 'm', 'a')).toBe('unreviewed');
    expect(statusOf(reviews, 'other', 'a')).toBe('ok');
  });

  it('counts every listed case once', () => {
    const c = countStatuses(reviews, 'm', order);
    expect(c).toEqual({ unreviewed: 2, ok: 1, model_error: 0, gt_wrong: 1, gt_missing: 0, ambiguous: 0 });
  });

  it('filters by a set of statuses, keeping the list order', () => {
    expect(filterByStatus(order, 'm', reviews, new Set(['unreviewed', 'gt_wrong'] as const))).toEqual(['a', 'c', 'd']);
    expect(filterByStatus(order, 'm', reviews, new Set())).toEqual(order);
  });

  it('finds the next unreviewed case after the current one, wrapping around', () => {
    expect(nextUnreviewed(order, 'a', 'm', reviews)).toBe('d');
    expect(nextUnreviewed(order, 'd', 'm', reviews)).toBe('a');
    expect(nextUnreviewed(order, null, 'm', reviews)).toBe('a');
    expect(nextUnreviewed(['b', 'c'], 'b', 'm', reviews)).toBeNull();
    expect(nextUnreviewed([], null, 'm', reviews)).toBeNull();
  });
});
