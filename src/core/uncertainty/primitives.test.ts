import { describe, expect, it } from 'vitest';
import { drawIndex, mulberry32u32 } from './mulberry32';
import { quantile7 } from './quantile';
import { holm } from './holm';

describe('mulberry32 (spec test vectors)', () => {
  it('seed 0', () => {
    const g = mulberry32u32(0);
    expect(Array.from({ length: 5 }, g)).toEqual([1144304738, 1416247, 958946056, 627933444, 2007157716]);
  });
  it('seed 12345', () => {
    const g = mulberry32u32(12345);
    expect(Array.from({ length: 5 }, g)).toEqual([4207900869, 1317490944, 2079646450, 3513001552, 2187978186]);
  });
  it('index draws, seed 0, n = 7', () => {
    const g = mulberry32u32(0);
    expect(Array.from({ length: 10 }, () => drawIndex(g(), 7))).toEqual([1, 0, 1, 1, 3, 3, 4, 4, 3, 4]);
  });
});

describe('quantile7 (NumPy linear)', () => {
  it('interpolates at q · (n − 1)', () => {
    const x = Float64Array.from([1, 2, 4, 8]);
    // positions 0.75 (between 1 and 2) and 2.25 (between 4 and 8)
    expect(quantile7(x, 0.25)).toBe(1.75);
    expect(quantile7(x, 0.75)).toBe(5);
    expect(quantile7(x, 0)).toBe(1);
    expect(quantile7(x, 1)).toBe(8);
  });
  it('the 95% ends of 1000 values sit at positions 24.975 and 974.025', () => {
    const x = Float64Array.from({ length: 1000 }, (_, i) => i * 10);
    const alpha = 1 - 0.95;
    expect(quantile7(x, alpha / 2)).toBeCloseTo(249.75, 9);
    expect(quantile7(x, 1 - alpha / 2)).toBeCloseTo(9740.25, 9);
  });
  it('a constant sample gives that constant exactly', () => {
    expect(quantile7(new Float64Array(10), 0.025)).toBe(0);
  });
});

describe('holm', () => {
  it('matches a hand example', () => {
    // sorted: 0.01 (×4 = 0.04), 0.02 (×3 = 0.06), 0.03 (×2 = 0.06), 0.04 (×1 = 0.04 → running max 0.06)
    const adj = holm([0.03, 0.01, 0.04, 0.02]);
    expect(adj[1]).toBeCloseTo(0.04, 15);
    expect(adj[3]).toBeCloseTo(0.06, 15);
    expect(adj[0]).toBeCloseTo(0.06, 15);
    expect(adj[2]).toBeCloseTo(0.06, 15);
  });
  it('caps at 1 and keeps a single p', () => {
    expect(holm([0.6, 0.5])).toEqual([1, 1]);
    expect(holm([0.3])).toEqual([0.3]);
  });
});
