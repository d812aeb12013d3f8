import { describe, expect, it } from 'vitest';
import { pack, packable, unpack } from './packedRows';

describe('two counts a double', () => {
  it('weighted sums of packed rows unpack to the plain weighted sums', () => {
    const n = 50;
    const W = 7; // odd: the last packed column holds one count
    const rows = Float64Array.from({ length: n * W }, (_, i) => (i * 7919) % 1000);
    expect(packable(rows, n)).toBe(true);
    const p = pack(rows, n, W);
    const weights = Array.from({ length: n }, (_, i) => (i * 31) % 4);
    const plain = new Float64Array(W);
    const packedSums = new Float64Array(Math.ceil(W / 2));
    for (let i = 0; i < n; i++) {
      for (let s = 0; s < W; s++) plain[s] += weights[i] * rows[i * W + s];
      for (let c = 0; c < packedSums.length; c++) packedSums[c] += weights[i] * p[i * packedSums.length + c];
    }
    const out = new Float64Array(W);
    unpack(packedSums, W, out);
    expect([...out]).toEqual([...plain]);
  });

  it('refuses fractions, negatives and counts whose sums could pass 2^26', () => {
    expect(packable(Float64Array.from([1, 0.5]), 2)).toBe(false);
    expect(packable(Float64Array.from([1, -1]), 2)).toBe(false);
    // 100 units: 100 · 671088 < 2^26 = 67108864 ≤ 100 · 671089
    expect(packable(Float64Array.from([671089]), 100)).toBe(false);
    expect(packable(Float64Array.from([671088]), 100)).toBe(true);
  });
});
