/**
 * The engine against brute force: replicates recomputed from the drawn unit lists (no weights,
 * no difference of sums), assignments by swapping per-unit scores, on cases small enough to
 * enumerate.
 */
import { describe, expect, it } from 'vitest';
import { runUncertainty } from './engine';
import type { GroupTable } from './table';

/** A group whose metric is the mean of per-unit scores (stats per unit: [score, 1]). */
function meanTable(id: string, scores: number[][]): GroupTable {
  const n = scores[0].length;
  return {
    id,
    units: Array.from({ length: n }, (_, i) => `u${String(i).padStart(2, '0')}`),
    width: 2,
    stats: scores.map((s) => Float64Array.from(s.flatMap((x) => [x, 1]))),
    keys: [`${id}/mean`],
    pairKeys: [{ index: 0, family: 'mean' }],
    evaluate: (sums, out) => {
      out[0] = sums[1] === 0 ? 0 : sums[0] / sums[1];
    },
  };
}

/** mulberry32 written again from the spec's text, for the brute force. */
function gen(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function q7(sorted: number[], q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const OPTS = { level: 0.9, replicates: 200, permutations: 100, seed: 7 };

describe('uncertainty engine, hand-sized cases', () => {
  const A = [1, 0.5, 0.25];
  const B = [0, 0.25, 0.5];

  it('3 units: every replicate is a mean of 3 drawn units; intervals and Δ as brute force', async () => {
    const block = await runUncertainty([meanTable('all', [A, B])], ['a', 'b'], OPTS);
    const g = gen(OPTS.seed);
    const ra: number[] = [];
    const rb: number[] = [];
    const rd: number[] = [];
    for (let r = 0; r < OPTS.replicates; r++) {
      const idx = [0, 1, 2].map(() => Math.floor((g() * 3) / 2 ** 32));
      const ma = mean(idx.map((i) => A[i]));
      const mb = mean(idx.map((i) => B[i]));
      ra.push(ma);
      rb.push(mb);
      rd.push(ma - mb);
    }
    // Every value a replicate can take (27 draws) contains what was drawn.
    const possible = new Set<number>();
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) possible.add(mean([A[i], A[j], A[k]]));
    for (const v of ra) expect(possible.has(v)).toBe(true);
    const ci = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return [q7(s, 0.05), q7(s, 0.95)];
    };
    const [lo, hi] = ci(ra);
    expect(block.intervals.a['all/mean'][0]).toBeCloseTo(lo, 14);
    expect(block.intervals.a['all/mean'][1]).toBeCloseTo(hi, 14);
    expect(block.intervals.b['all/mean'][0]).toBeCloseTo(ci(rb)[0], 14);
    const pair = block.pairs[0];
    expect(pair.ci[0]).toBeCloseTo(ci(rd)[0], 14);
    expect(pair.ci[1]).toBeCloseTo(ci(rd)[1], 14);
    expect(pair.diff).toBeCloseTo(mean(A) - mean(B), 15);
  });

  it('3 units: exact p over the 8 assignments', async () => {
    const block = await runUncertainty([meanTable('all', [A, B])], ['a', 'b'], OPTS);
    const obs = Math.abs(mean(A) - mean(B));
    let hits = 0;
    for (let k = 0; k < 8; k++) {
      const a = A.map((x, i) => ((k >> i) & 1 ? B[i] : x));
      const b = B.map((x, i) => ((k >> i) & 1 ? A[i] : x));
      if (Math.abs(mean(a) - mean(b)) >= obs - 1e-12) hits++;
    }
    expect(block.pairs[0].p).toBe(hits / 8);
    // d = (1, 0.25, −0.25), observed Σd = 1: |±1 ± 0.25 ∓ 0.25| is 1.5, 1, 1 or 0.5 → 6 of 8
    expect(hits).toBe(6);
  });

  it('identical models: Δ = 0, interval [0, 0], p = 1 (exact and random)', async () => {
    const s10 = Array.from({ length: 10 }, (_, i) => (i * 7) % 3);
    const s20 = Array.from({ length: 20 }, (_, i) => (i * 5) % 4);
    const block = await runUncertainty([meanTable('small', [s10, s10]), meanTable('big', [s20, s20])], ['a', 'b'], OPTS);
    for (const p of block.pairs) {
      expect(p.diff).toBe(0);
      expect(p.ci).toEqual([0, 0]);
      expect(p.p).toBe(1);
      expect(p.p_holm).toBe(1);
    }
  });

  it('a model winning every unit of 10: p = 2/1024 exactly', async () => {
    const block = await runUncertainty([meanTable('all', [Array(10).fill(1), Array(10).fill(0)])], ['a', 'b'], OPTS);
    expect(block.pairs[0].p).toBe(2 / 1024);
    expect(block.pairs[0].diff).toBe(1);
  });

  it('over 12 units the second generator (seed + 1) draws the assignments', async () => {
    const a = Array.from({ length: 15 }, (_, i) => (i % 3 === 0 ? 1 : 0.4));
    const b = Array.from({ length: 15 }, (_, i) => (i % 4 === 0 ? 0.8 : 0.3));
    const block = await runUncertainty([meanTable('all', [a, b])], ['a', 'b'], OPTS);
    const g = gen(OPTS.seed + 1);
    const obs = Math.abs(mean(a) - mean(b));
    let hits = 0;
    for (let r = 0; r < OPTS.permutations; r++) {
      const swap = a.map(() => g() >= 2 ** 31);
      const aa = a.map((x, i) => (swap[i] ? b[i] : x));
      const bb = b.map((x, i) => (swap[i] ? a[i] : x));
      if (Math.abs(mean(aa) - mean(bb)) >= obs - 1e-12) hits++;
    }
    expect(block.pairs[0].p).toBe((1 + hits) / (OPTS.permutations + 1));
    expect(block.pairs[0].p).toBeGreaterThan(0);
    expect(block.pairs[0].p).toBeLessThan(1);
  });

  it('Holm over the groups of one headline metric; bootstrap draws run group after group', async () => {
    const w = Array(10).fill(1);
    const l = Array(10).fill(0);
    const block = await runUncertainty([meanTable('g1', [w, l]), meanTable('g2', [[1, 0, 1, 1], [0, 0, 1, 0]])], ['a', 'b'], OPTS);
    const [p1, p2] = block.pairs;
    expect(p1.p).toBe(2 / 1024);
    expect(p2.p).toBe(8 / 16); // d = (1, 0, 0, 1): |Σ| = 2 when units 0 and 3 are both kept or both swapped
    expect(p1.p_holm).toBe(Math.min(1, 2 * p1.p));
    expect(p2.p_holm).toBe(Math.max(p1.p_holm, p2.p));
    expect(block.groups).toEqual([
      { id: 'g1', units: 10 },
      { id: 'g2', units: 4 },
    ]);
    // g2's bootstrap continues the generator after g1's 200 × 10 draws.
    const g = gen(OPTS.seed);
    for (let i = 0; i < OPTS.replicates * 10; i++) g();
    const first = [0, 1, 2, 3].map(() => Math.floor((g() * 4) / 2 ** 32));
    expect(first.every((i) => i >= 0 && i < 4)).toBe(true);
    const reps: number[] = [mean(first.map((i) => [1, 0, 1, 1][i]))];
    for (let r = 1; r < OPTS.replicates; r++) reps.push(mean([0, 1, 2, 3].map(() => [1, 0, 1, 1][Math.floor((g() * 4) / 2 ** 32)])));
    const s = reps.sort((x, y) => x - y);
    expect(block.intervals.a['g2/mean']).toEqual([q7(s, 0.05), q7(s, 0.95)]);
  });

  it('groups of 12 units or fewer draw nothing from the second generator', async () => {
    const a = Array.from({ length: 15 }, (_, i) => (i % 3 === 0 ? 1 : 0.4));
    const b = Array.from({ length: 15 }, (_, i) => (i % 4 === 0 ? 0.8 : 0.3));
    const alone = await runUncertainty([meanTable('big', [a, b])], ['a', 'b'], OPTS);
    const after = await runUncertainty([meanTable('small', [a.slice(0, 12), b.slice(0, 12)]), meanTable('big', [a, b])], ['a', 'b'], OPTS);
    // The bootstrap draws of `big` move (small drew first); its assignments do not.
    expect(after.pairs[1].p).toBe(alone.pairs[0].p);
  });

  it('yields, reports progress up to the total, and gives the same bits with or without yields', async () => {
    const a = Array.from({ length: 40 }, (_, i) => (i % 3) / 2);
    const b = Array.from({ length: 40 }, (_, i) => (i % 5) / 4);
    const tables = () => [meanTable('g1', [a, b]), meanTable('g2', [a.slice(0, 9), b.slice(0, 9)])];
    const seen: [number, number][] = [];
    let yields = 0;
    const withYields = await runUncertainty(tables(), ['a', 'b'], OPTS, {
      progress: (done, total) => seen.push([done, total]),
      yieldEvery: async () => {
        yields++;
        await new Promise((r) => setTimeout(r, 0));
      },
    });
    expect(yields).toBeGreaterThan(1);
    const total = seen[0][1];
    expect(total).toBe(2 * OPTS.replicates + OPTS.permutations + 2 ** 9);
    expect(seen.every(([d, t], i) => t === total && (i === 0 || d >= seen[i - 1][0]))).toBe(true);
    expect(seen[seen.length - 1][0]).toBe(total);
    expect(JSON.stringify(await runUncertainty(tables(), ['a', 'b'], OPTS))).toBe(JSON.stringify(withYields));
  });

  it('stops when the signal aborts mid-run', async () => {
    const ac = new AbortController();
    const a = Array.from({ length: 40 }, (_, i) => i % 2);
    const run = runUncertainty([meanTable('all', [a, a.map((x) => 1 - x)])], ['a', 'b'], { ...OPTS, replicates: 5000 }, {
      yieldEvery: () => new Promise((r) => setTimeout(r, 0)),
      progress: (done) => {
        if (done > 100) ac.abort();
      },
      signal: ac.signal,
    });
    await expect(run).rejects.toThrow();
  });

  it('stops when the signal aborts', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runUncertainty([meanTable('all', [A, B])], ['a', 'b'], OPTS, { signal: ac.signal })).rejects.toThrow();
  });
});
