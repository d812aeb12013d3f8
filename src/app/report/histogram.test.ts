import { describe, expect, it } from 'vitest';
import { countTicks, nextDown, scoreHistogram } from './histogram';

/** What the case list's score filter keeps: lo ≤ s ≤ hi (query.ts inRange). */
const inRange = (s: number, [lo, hi]: [number, number]) => s >= lo && s <= hi;

describe('scoreHistogram', () => {
  it('puts each score in the one bin whose inclusive range the case filter uses', () => {
    const scores = Float64Array.from([0, 0.1, 0.2, 0.29999, 0.3, 0.5, 0.7, 0.9, 0.99, 1, NaN]);
    const bins = scoreHistogram([scores], 10);
    expect(bins).toHaveLength(10);
    for (const b of bins) {
      const selected = [...scores].filter((s) => inRange(s, b.range)).length;
      expect(b.counts[0], `bin ${b.from}`).toBe(selected);
    }
    expect(bins.reduce((n, b) => n + b.counts[0], 0)).toBe(10); // NaN (no score) is in no bin
    expect(bins[9].counts[0]).toBe(3); // 0.9, 0.99 and 1 (the last bin includes the top edge)
    expect(bins[2].counts[0]).toBe(2); // 0.2 and 0.29999, not 0.3
  });

  it('counts every series on the same bins', () => {
    const bins = scoreHistogram([Float64Array.from([0.05, 0.95]), Float64Array.from([0.95, 0.96, 0.5])], 2);
    expect(bins.map((b) => b.counts)).toEqual([
      [1, 0],
      [1, 3],
    ]);
  });

  it('widens the axis when a score is above 1', () => {
    const bins = scoreHistogram([Float64Array.from([0, 2])], 4);
    expect(bins.at(-1)!.to).toBe(2);
    expect(bins.map((b) => b.counts[0])).toEqual([1, 0, 0, 1]);
  });
});

describe('nextDown', () => {
  it('is the double just below', () => {
    expect(nextDown(0.3)).toBeLessThan(0.3);
    expect(0.3 - nextDown(0.3)).toBe(2 ** -54); // one unit in the last place of 0.3
    expect(nextDown(0)).toBe(0);
  });
});

describe('count axis ticks', () => {
  it('are whole numbers, evenly spaced, from 0 to at least the largest count', () => {
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(countTicks(1234)).toEqual([0, 500, 1000, 1500]);
    for (let max = 1; max < 3000; max += 7) {
      const t = countTicks(max);
      expect(t.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(5);
      const step = t[1] - t[0];
      expect(t.every((v, i) => v === i * step && Number.isInteger(v))).toBe(true);
    }
  });
});
