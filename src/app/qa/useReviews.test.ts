import { describe, expect, it } from 'vitest';
import type { ReviewRow } from '../../db/schema';
import { reviewKey, statusOf } from './reviewFilters';
import { buildReviewMap } from './useReviews';

const row = (subject: string, case_id: string, extra: Partial<ReviewRow>): ReviewRow => ({ fingerprint: 'fp', subject, case_id, status: 'unreviewed', updated_at: 't', ...extra });

describe('the case list review map', () => {
  const rows = [
    row('gt', 'a', { status: 'gt_wrong', note: 'GT note' }),
    row('pred:AAAA', 'a', { status: 'model_error', note: 'A note' }),
    row('pred:AAAA', 'b', { status: 'ok' }),
    row('pred:BBBB', 'b', { status: 'ambiguous' }),
    row('pred:CCCC', 'c', { status: 'ok' }), // a file that is not loaded
    row('name:old', 'c', { status: 'ok' }), // a v1 review not yet claimed
  ];
  const contents = { 'model A': 'AAAA', 'model B': 'BBBB', 'same file as A': 'AAAA' };
  const map = buildReviewMap(rows, contents);

  it('shows the GT review for every loaded model, and each model its own file’s review on top', () => {
    expect(statusOf(map, 'model A', 'a')).toBe('model_error');
    expect(statusOf(map, 'model B', 'a')).toBe('gt_wrong');
    expect(map.get(reviewKey('model B', 'a'))?.note).toBeUndefined(); // a GT note is not a case note
    expect(map.get(reviewKey('model B', 'a'))?.gt?.note).toBe('GT note');
    expect(statusOf(map, 'model B', 'b')).toBe('ambiguous');
  });

  it('keys by content: a second model with the same file bytes shares its reviews', () => {
    expect(statusOf(map, 'same file as A', 'a')).toBe('model_error');
    expect(statusOf(map, 'same file as A', 'b')).toBe('ok');
  });

  it('shows nothing of files that are not loaded, nor of unclaimed names', () => {
    expect([...map.keys()].filter((k) => k.endsWith('\u0000c'))).toEqual([]);
    expect(map.size).toBe(6); // a and b for each of the 3 models; nothing for c
  });
});
