import { describe, expect, it } from 'vitest';
import { emptySplit } from './emptySplit';

describe('an empty split', () => {
  it('is one with gt 0 and pred 0, whatever the official hmean says', () => {
    expect(emptySplit({ 'glass/gt': 0, 'glass/pred': 0, 'glass/hmean': 1 }, 'glass')).toEqual({ gt: 0, pred: 0 });
  });
  it('is not one with predictions (precision 0 is a real number) or with GT', () => {
    expect(emptySplit({ 'glass/gt': 0, 'glass/pred': 3, 'glass/hmean': 0 }, 'glass')).toBeNull();
    expect(emptySplit({ 'glass/gt': 2, 'glass/pred': 0 }, 'glass')).toBeNull();
    expect(emptySplit({ 'glass/hmean': 1 }, 'glass')).toBeNull(); // counts not reported: say nothing
    expect(emptySplit(undefined, 'glass')).toBeNull();
  });
});
