import { describe, expect, it } from 'vitest';
import type { Instance } from '../../core/model';
import { describeError, errorCauses } from './errorCause';
import { explain } from './explain';

const fn = (over: Partial<Instance>): Instance => ({ id: 2, state: 'fn', ...over });

describe('the error class of an instance, in words', () => {
  it('names the parts of a split FN and returns them as causes', () => {
    const g = fn({ error: 'split', error_with: { pred: [3, 7] } });
    expect(describeError('gt', g)).toBe('split: parts pred 3, pred 7');
    expect(errorCauses(g)).toEqual([
      { side: 'pred', id: 3 },
      { side: 'pred', id: 7 },
    ]);
  });

  it('names the GTs a merge covers, the don’t-care region and the under-threshold prediction', () => {
    expect(describeError('pred', { id: 4, state: 'fp', error: 'merge', error_with: { gt: [1, 5] } })).toBe('merge: covers GT 1, GT 5');
    expect(describeError('gt', fn({ error: 'dontcare', error_with: { pred: [9], gt: [0] } }))).toBe("dontcare: pred 9 was swallowed by don't-care GT 0");
    expect(describeError('gt', fn({ error: 'score', error_with: { pred: [6] } }))).toBe('score: pred 6 would match, under the score threshold');
  });

  it('says nothing for an instance without a class, and shows the class first in the explanation', () => {
    expect(describeError('gt', fn({}))).toBeNull();
    expect(errorCauses(fn({ error_with: { pred: [1] } }))).toEqual([]);
    expect(explain('gt', fn({ error: 'missed' })).facts[0]).toEqual({ label: 'error', value: 'missed: no prediction within IoU 0.1' });
  });
});
