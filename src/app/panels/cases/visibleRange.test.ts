import { describe, expect, it } from 'vitest';
import { visibleRange } from './visibleRange';

describe('visibleRange', () => {
  it('keeps only the rows in view plus the overscan, whatever the list length', () => {
    expect(visibleRange(0, 560, 56, 25_000, 6)).toEqual([0, 16]);
    const [first, end] = visibleRange(56 * 10_000, 560, 56, 25_000, 6);
    expect([first, end]).toEqual([9_994, 10_016]);
    expect(end - first).toBeLessThan(40);
  });

  it('clamps a scroll position left past the end of a list that got shorter', () => {
    expect(visibleRange(56 * 10_000, 560, 56, 30, 6)).toEqual([14, 30]);
    expect(visibleRange(1000, 560, 56, 3, 6)).toEqual([0, 3]);
  });

  it('renders nothing for an empty list', () => {
    expect(visibleRange(0, 560, 56, 0, 6)).toEqual([0, 0]);
  });
});
