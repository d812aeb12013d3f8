/**
 * The sweep-line union of rectangles against hand-worked areas, against Clipper2's polygon union
 * (the code it replaced for the `split` rule) on random boxes, and the growth of its work.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../benchmarks/ltb/synthetic';
import { boxRegion, unionIoU } from './polygonRegion';
import { boxUnionIoU, rectUnionArea, rectUnionStats } from './rectUnion';

const flat = (rs: number[][]) => rs.flat();

function randomBoxes(rand: () => number, n: number, span: number, decimals: number): number[][] {
  const q = 10 ** decimals;
  const r = (v: number) => Math.round(v * q) / q;
  return Array.from({ length: n }, () => {
    const x = r(rand() * span), y = r(rand() * span);
    return [x, y, r(x + 1 + rand() * span * 0.4), r(y + 1 + rand() * span * 0.4)];
  });
}

describe('rectUnionArea', () => {
  it('adds disjoint rectangles, counts an overlap once and a nested one not at all', () => {
    expect(rectUnionArea(flat([[0, 0, 10, 10], [20, 0, 30, 5]]), 2)).toBe(150);
    // 10×10 and 10×10 overlapping in a 5×5 square: 175.
    expect(rectUnionArea(flat([[0, 0, 10, 10], [5, 5, 15, 15]]), 2)).toBe(175);
    expect(rectUnionArea(flat([[0, 0, 10, 10], [2, 2, 4, 4], [0, 0, 10, 10]]), 3)).toBe(100);
    // A cross: 30×10 + 10×30 − 10×10.
    expect(rectUnionArea(flat([[0, 10, 30, 20], [10, 0, 20, 30]]), 2)).toBe(500);
  });
  it('leaves out empty and reversed rectangles', () => {
    expect(rectUnionArea(flat([[0, 0, 0, 10], [5, 5, 1, 9], [0, 0, 2, 3]]), 3)).toBe(6);
    expect(rectUnionArea([], 0)).toBe(0);
  });
  it('takes non-integer coordinates (comparator sort of the events)', () => {
    expect(rectUnionArea(flat([[0.5, 0.25, 1.5, 1.25], [1, 0.75, 2, 1.75]]), 2)).toBeCloseTo(2 - 0.25, 12);
  });
});

describe('boxUnionIoU equals the Clipper2 union it replaced', () => {
  const clipper = (t: number[], parts: number[][]) => unionIoU(boxRegion(t), parts.map(boxRegion));
  it('exactly, on integer pixel boxes', () => {
    const rand = rng(7);
    for (let trial = 0; trial < 300; trial++) {
      const [t] = randomBoxes(rand, 1, 500, 0);
      const parts = randomBoxes(rand, 1 + Math.floor(rand() * 40), 500, 0);
      expect(boxUnionIoU(t, parts), `trial ${trial}`).toBe(clipper(t, parts));
    }
  });
  it('to the last bits, on fractional boxes', () => {
    const rand = rng(11);
    for (let trial = 0; trial < 300; trial++) {
      const [t] = randomBoxes(rand, 1, 50, 3);
      const parts = randomBoxes(rand, 1 + Math.floor(rand() * 30), 50, 3);
      expect(Math.abs(boxUnionIoU(t, parts) - clipper(t, parts)), `trial ${trial}`).toBeLessThan(1e-12);
    }
  });
  it('is 0 with no part, or an empty target', () => {
    expect(boxUnionIoU([0, 0, 10, 10], [])).toBe(0);
    expect(boxUnionIoU([0, 0, 10, 10], [[5, 5, 5, 9]])).toBe(0);
    expect(boxUnionIoU([0, 0, 0, 10], [[0, 0, 5, 5]])).toBe(0);
  });
});

describe('rectUnionArea work', () => {
  it('grows as n log n: 4× the rectangles cost under 6× the tree visits (quadratic would be 16×)', () => {
    const visits = (n: number) => {
      const boxes = randomBoxes(rng(3), n, 3000, 0);
      const before = rectUnionStats.visits;
      rectUnionArea(flat(boxes), n);
      return rectUnionStats.visits - before;
    };
    const small = visits(5_000);
    const large = visits(20_000);
    expect(large / small).toBeLessThan(6);
    expect(large / small).toBeGreaterThan(3.5);
  });
});
