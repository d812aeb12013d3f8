/**
 * The bootstrap and the randomization test of shared/specs/uncertainty.md on GroupTables.
 * Everything per replicate works in typed arrays allocated once per group: a replicate is a
 * weighted re-sum of unit rows plus the protocol's aggregation; a swap of the paired test is a
 * difference of sums (model a loses d_i = a_i − b_i on a swapped unit, model b gains it).
 */
import { drawIndex, mulberry32u32, SWAP_AT } from './mulberry32';
import { quantile7 } from './quantile';
import { holm } from './holm';
import type { GroupTable } from './table';
import { UNCERTAINTY_METHOD, type UncertaintyBlock, type UncertaintyContext, type UncertaintyOptions, type UncertaintyPair } from './index';

/** Units up to which the paired test enumerates every assignment. */
export const EXACT_UNITS = 12;
/** Replicates (or assignments) between two checks of the signal / yields to the caller. */
const CHUNK = 64;
const TOLERANCE = 1e-12;

export async function runUncertainty(
  tables: readonly GroupTable[],
  models: readonly string[],
  opts: UncertaintyOptions,
  ctx?: UncertaintyContext,
): Promise<UncertaintyBlock> {
  const B = opts.replicates;
  const R = opts.permutations;
  const alpha = 1 - opts.level;
  const qLo = alpha / 2;
  const qHi = 1 - alpha / 2;
  const M = models.length;
  const nPairs = (M * (M - 1)) / 2;
  const groups = tables.filter((t) => t.units.length > 0);

  const intervals: Record<string, Record<string, [number, number]>> = {};
  for (const m of models) intervals[m] = {};
  const pairs: UncertaintyPair[] = [];

  // Progress in replicate / assignment steps over all groups.
  const permSteps = (n: number) => (n <= EXACT_UNITS ? 2 ** n : R) * nPairs;
  const total = groups.reduce((s, g) => s + B + permSteps(g.units.length), 0);
  let done = 0;
  const tick = async (steps: number) => {
    done += steps;
    ctx?.signal?.throwIfAborted();
    ctx?.progress?.(done, total);
    if (ctx?.yieldEvery) await ctx.yieldEvery();
  };

  const boot = mulberry32u32(opts.seed);
  const perm = mulberry32u32(opts.seed + 1);

  for (const g of groups) {
    ctx?.signal?.throwIfAborted();
    const n = g.units.length;
    const W = g.width;
    const K = g.keys.length;
    const sums = new Float64Array(W);
    const out = new Float64Array(K);
    const weights = new Int32Array(n);
    // reps[(m · K + k) · B + r]: metric k of model m in replicate r.
    const reps = new Float64Array(M * K * B);

    for (let r = 0; r < B; r++) {
      weights.fill(0);
      for (let j = 0; j < n; j++) weights[drawIndex(boot(), n)]++;
      for (let m = 0; m < M; m++) {
        weightedSum(g.stats[m], weights, n, W, sums);
        g.evaluate(sums, out);
        const base = m * K * B + r;
        for (let k = 0; k < K; k++) reps[base + k * B] = out[k];
      }
      if ((r + 1) % CHUNK === 0) await tick(CHUNK);
    }
    await tick(B % CHUNK);

    const sorted = new Float64Array(B);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        sorted.set(reps.subarray((m * K + k) * B, (m * K + k + 1) * B));
        const ci = interval(sorted, qLo, qHi);
        if (ci) intervals[models[m]][g.keys[k]] = ci;
      }
    }

    // Observed metrics (every unit once): the official numbers.
    const observed = new Float64Array(M * K);
    const ones = new Int32Array(n).fill(1);
    for (let m = 0; m < M; m++) {
      weightedSum(g.stats[m], ones, n, W, sums);
      g.evaluate(sums, out);
      observed.set(out, m * K);
    }

    for (let a = 0; a < M; a++) {
      for (let b = a + 1; b < M; b++) {
        const counts = await pairTest(g, a, b, observed, n <= EXACT_UNITS ? null : { R, next: perm }, tick);
        const trials = n <= EXACT_UNITS ? 2 ** n : R;
        for (let pk = 0; pk < g.pairKeys.length; pk++) {
          const k = g.pairKeys[pk].index;
          const diff = observed[a * K + k] - observed[b * K + k];
          // A metric one of the two models does not have (Chronicles omits a mean over no row).
          if (Number.isNaN(diff)) continue;
          for (let r = 0; r < B; r++) sorted[r] = reps[(a * K + k) * B + r] - reps[(b * K + k) * B + r];
          const ci = interval(sorted, qLo, qHi);
          if (!ci) continue;
          const p = n <= EXACT_UNITS ? counts[pk] / trials : (1 + counts[pk]) / (R + 1);
          pairs.push({
            a: models[a],
            b: models[b],
            group: g.id,
            key: g.keys[k],
            diff,
            ci,
            p,
            p_holm: p,
          });
        }
      }
    }
  }

  adjustHolm(pairs, groups);
  ctx?.progress?.(total, total);
  return {
    schema: 1,
    method: UNCERTAINTY_METHOD,
    level: opts.level,
    replicates: B,
    permutations: R,
    seed: opts.seed,
    groups: groups.map((g) => ({ id: g.id, units: g.units.length })),
    intervals,
    pairs,
  };
}

/** sums = Σ_i w_i · row_i, in unit order (the official sums' order when every weight is 1). */
function weightedSum(stats: Float64Array, w: Int32Array, n: number, W: number, sums: Float64Array): void {
  sums.fill(0);
  for (let i = 0; i < n; i++) {
    const wi = w[i];
    if (wi === 0) continue;
    const o = i * W;
    if (wi === 1) for (let s = 0; s < W; s++) sums[s] += stats[o + s];
    else for (let s = 0; s < W; s++) sums[s] += wi * stats[o + s];
  }
}

/**
 * The type-7 quantiles of the replicate values. A replicate where the metric does not exist
 * (NaN: Chronicles leaves out a mean over no row instead of giving it a value) is left out;
 * null when no replicate has it.
 */
function interval(values: Float64Array, qLo: number, qHi: number): [number, number] | null {
  values.sort(); // NaN sorts last
  let n = values.length;
  while (n > 0 && Number.isNaN(values[n - 1])) n--;
  if (n === 0) return null;
  const v = n === values.length ? values : values.subarray(0, n);
  return [quantile7(v, qLo), quantile7(v, qHi)];
}

/**
 * Counts, per pair key, the assignments whose |metric(a) − metric(b)| reaches the observed one
 * (less 1e-12). `random` null: every one of the 2^n assignments (bit i of k swaps unit i).
 */
async function pairTest(
  g: GroupTable,
  a: number,
  b: number,
  observed: Float64Array,
  random: { R: number; next: () => number } | null,
  tick: (steps: number) => Promise<void>,
): Promise<Int32Array> {
  const n = g.units.length;
  const W = g.width;
  const K = g.keys.length;
  const P = g.pairKeys.length;
  const A = g.stats[a];
  const Bs = g.stats[b];
  const d = new Float64Array(n * W);
  for (let i = 0; i < n * W; i++) d[i] = A[i] - Bs[i];
  const sumA = new Float64Array(W);
  const sumB = new Float64Array(W);
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < W; s++) {
      sumA[s] += A[i * W + s];
      sumB[s] += Bs[i * W + s];
    }
  }
  const moved = new Float64Array(W);
  const sa = new Float64Array(W);
  const sb = new Float64Array(W);
  const outA = new Float64Array(K);
  const outB = new Float64Array(K);
  const bar = new Float64Array(P);
  for (let pk = 0; pk < P; pk++) {
    const k = g.pairKeys[pk].index;
    bar[pk] = Math.abs(observed[a * K + k] - observed[b * K + k]) - TOLERANCE;
  }
  const counts = new Int32Array(P);
  const trials = random ? random.R : 2 ** n;
  for (let t = 0; t < trials; t++) {
    moved.fill(0);
    let any = false;
    for (let i = 0; i < n; i++) {
      const swap = random ? random.next() >= SWAP_AT : ((t >>> i) & 1) === 1;
      if (!swap) continue;
      any = true;
      const o = i * W;
      for (let s = 0; s < W; s++) moved[s] += d[o + s];
    }
    if (any) {
      for (let s = 0; s < W; s++) {
        sa[s] = sumA[s] - moved[s];
        sb[s] = sumB[s] + moved[s];
      }
      g.evaluate(sa, outA);
      g.evaluate(sb, outB);
    } else {
      g.evaluate(sumA, outA);
      g.evaluate(sumB, outB);
    }
    for (let pk = 0; pk < P; pk++) {
      const k = g.pairKeys[pk].index;
      if (Math.abs(outA[k] - outB[k]) >= bar[pk]) counts[pk]++;
    }
    if ((t + 1) % CHUNK === 0) await tick(CHUNK);
  }
  await tick(trials % CHUNK);
  return counts;
}

/** For one pair and one Holm family (a headline metric), the p-values of all groups together. */
function adjustHolm(pairs: UncertaintyPair[], groups: readonly GroupTable[]): void {
  const familyOf = new Map<string, string>();
  for (const g of groups) for (const pk of g.pairKeys) familyOf.set(`${g.id}\u0000${g.keys[pk.index]}`, pk.family);
  const families = new Map<string, UncertaintyPair[]>();
  for (const p of pairs) {
    const f = `${p.a}\u0000${p.b}\u0000${familyOf.get(`${p.group}\u0000${p.key}`)}`;
    let list = families.get(f);
    if (!list) families.set(f, (list = []));
    list.push(p);
  }
  for (const list of families.values()) {
    const adj = holm(list.map((p) => p.p));
    list.forEach((p, i) => (p.p_holm = adj[i]));
  }
}
