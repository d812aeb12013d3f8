/**
 * The bootstrap and the randomization test of shared/specs/uncertainty.md on GroupTables.
 * Everything per replicate works in typed arrays allocated once per group: a replicate is a
 * weighted re-sum of unit rows plus the protocol's aggregation; a swap of the paired test is a
 * difference of sums (model a loses d_i = a_i − b_i on a swapped unit, model b gains it). The
 * hot loops are synchronous methods run a chunk at a time; the async driver between chunks
 * checks the signal, reports progress and yields.
 */
import { drawIndex, Mulberry32, SWAP_AT } from './mulberry32';
import { quantile7 } from './quantile';
import { holm } from './holm';
import { pack, packable, unpack } from './packedRows';
import type { GroupTable } from './table';
import { UNCERTAINTY_METHOD, type UncertaintyBlock, type UncertaintyContext, type UncertaintyOptions, type UncertaintyPair } from './block';

/** Units up to which the paired test enumerates every assignment. */
export const EXACT_UNITS = 12;
/**
 * Work (unit-row numbers summed) between two checks of the signal / yields to the caller: a
 * few milliseconds, so a worker stays responsive to a cancel whatever the group's size (LTB 300
 * images × 2 models: ~30 replicates a chunk; 20,000 images: one).
 */
const CHUNK_WORK = 1 << 18;
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
    if (ctx?.yieldEvery) {
      await ctx.yieldEvery();
      ctx.signal?.throwIfAborted();
    }
  };

  const boot = new Mulberry32(opts.seed);
  const perm = new Mulberry32(opts.seed + 1);

  for (const g of groups) {
    ctx?.signal?.throwIfAborted();
    const n = g.units.length;
    const K = g.keys.length;
    // Chunks depend on the group's size only, and the draws do not depend on the chunks.
    const chunk = Math.max(1, Math.floor(CHUNK_WORK / (n * g.width * M)));
    const bs = new Bootstrap(g, B);
    for (let r = 0; r < B; r += chunk) {
      const to = Math.min(B, r + chunk);
      bs.replicates(r, to, boot);
      await tick(to - r);
    }

    const sorted = new Float64Array(B);
    for (let m = 0; m < M; m++) {
      for (let k = 0; k < K; k++) {
        sorted.set(bs.values(m, k));
        const ci = interval(sorted, qLo, qHi);
        if (ci) intervals[models[m]][g.keys[k]] = ci;
      }
    }

    const observed = bs.observed();
    for (let a = 0; a < M; a++) {
      for (let b = a + 1; b < M; b++) {
        const test = new PairTest(g, a, b, observed);
        const exact = n <= EXACT_UNITS;
        const trials = exact ? 2 ** n : R;
        for (let t = 0; t < trials; t += chunk) {
          const to = Math.min(trials, t + chunk);
          if (exact) test.enumerate(t, to);
          else test.draw(to - t, perm);
          await tick(to - t);
        }
        for (let pk = 0; pk < g.pairKeys.length; pk++) {
          const k = g.pairKeys[pk].index;
          const diff = observed[a * K + k] - observed[b * K + k];
          // A metric one of the two models does not have (Chronicles omits a mean over no row).
          if (Number.isNaN(diff)) continue;
          const va = bs.values(a, k);
          const vb = bs.values(b, k);
          for (let r = 0; r < B; r++) sorted[r] = va[r] - vb[r];
          const ci = interval(sorted, qLo, qHi);
          if (!ci) continue;
          const hits = test.counts[pk];
          pairs.push({ a: models[a], b: models[b], group: g.id, key: g.keys[k], diff, ci, p: exact ? hits / trials : (1 + hits) / (R + 1), p_holm: 1 });
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

/** One group's bootstrap: every model's metrics in every replicate. */
class Bootstrap {
  private readonly n: number;
  private readonly M: number;
  private readonly K: number;
  private readonly MW: number;
  /**
   * Every model's row of a unit side by side, so one pass over the weights sums them all;
   * packed two counts a double when the group allows it (packedRows.ts).
   */
  private readonly joint: Float64Array;
  /** The width of `joint`'s rows and the sums of them (packed or not). */
  private readonly JW: number;
  private readonly jointSums: Float64Array;
  private readonly packed: boolean;
  private readonly sums: Float64Array;
  private readonly modelSums: Float64Array[];
  private readonly weights: Int32Array;
  private readonly out: Float64Array;
  /** reps[(m · K + k) · B + r]: metric k of model m in replicate r. */
  private readonly reps: Float64Array;

  constructor(
    private readonly g: GroupTable,
    private readonly B: number,
  ) {
    const W = g.width;
    this.n = g.units.length;
    this.M = g.stats.length;
    this.K = g.keys.length;
    this.MW = this.M * W;
    const joint = new Float64Array(this.n * this.MW);
    for (let i = 0; i < this.n; i++) for (let m = 0; m < this.M; m++) joint.set(g.stats[m].subarray(i * W, (i + 1) * W), i * this.MW + m * W);
    this.packed = packable(joint, this.n);
    this.joint = this.packed ? pack(joint, this.n, this.MW) : joint;
    this.JW = this.packed ? Math.ceil(this.MW / 2) : this.MW;
    this.sums = new Float64Array(this.MW);
    this.jointSums = this.packed ? new Float64Array(this.JW) : this.sums;
    this.modelSums = g.stats.map((_, m) => this.sums.subarray(m * W, (m + 1) * W));
    this.weights = new Int32Array(this.n);
    this.out = new Float64Array(this.K);
    this.reps = new Float64Array(this.M * this.K * B);
  }

  /** Replicates from … to − 1: n draws each from `gen` (the spec's order), weights = counts. */
  replicates(from: number, to: number, gen: Mulberry32): void {
    const { n, M, K, B, weights, out, reps, g } = this;
    for (let r = from; r < to; r++) {
      weights.fill(0);
      for (let j = 0; j < n; j++) weights[drawIndex(gen.next(), n)]++;
      this.sum(weights);
      for (let m = 0; m < M; m++) {
        g.evaluate(this.modelSums[m], out);
        const base = m * K * B + r;
        for (let k = 0; k < K; k++) reps[base + k * B] = out[k];
      }
    }
  }

  /** this.sums = Σ w_i · row_i of every model. */
  private sum(weights: Int32Array): void {
    weightedSum(this.joint, weights, this.n, this.JW, this.jointSums);
    if (this.packed) unpack(this.jointSums, this.MW, this.sums);
  }

  values(m: number, k: number): Float64Array {
    return this.reps.subarray((m * this.K + k) * this.B, (m * this.K + k + 1) * this.B);
  }

  /** Every unit once: the official numbers. observed[m · K + k]. */
  observed(): Float64Array {
    const o = new Float64Array(this.M * this.K);
    this.sum(new Int32Array(this.n).fill(1));
    for (let m = 0; m < this.M; m++) {
      this.g.evaluate(this.modelSums[m], this.out);
      o.set(this.out, m * this.K);
    }
    return o;
  }
}

/** sums = Σ_i w_i · row_i, in unit order (the official sums' order when every weight is 1). */
function weightedSum(rows: Float64Array, w: Int32Array, n: number, W: number, sums: Float64Array): void {
  sums.fill(0);
  for (let i = 0; i < n; i++) {
    const wi = w[i];
    if (wi === 0) continue;
    const o = i * W;
    if (wi === 1) for (let s = 0; s < W; s++) sums[s] += rows[o + s];
    else for (let s = 0; s < W; s++) sums[s] += wi * rows[o + s];
  }
}

/**
 * The paired test of models a and b on one group: counts, per pair key, the assignments whose
 * |metric(a) − metric(b)| reaches the observed one (less 1e-12).
 */
class PairTest {
  readonly counts: Int32Array;
  private readonly n: number;
  private readonly W: number;
  /**
   * Per unit the row swapped in: d_i = a_i − b_i, or, when the group's counts allow it, d_i + OFF
   * (non-negative) packed two a double (packedRows.ts) — `judge` then unpacks the sum and takes
   * OFF back once per swapped unit.
   */
  private readonly d: Float64Array;
  private readonly DW: number;
  private readonly off: number;
  private readonly movedPacked: Float64Array | null;
  private swapped = 0;
  private readonly sumA: Float64Array;
  private readonly sumB: Float64Array;
  private readonly moved: Float64Array;
  private readonly sa: Float64Array;
  private readonly sb: Float64Array;
  private readonly outA: Float64Array;
  private readonly outB: Float64Array;
  private readonly keys: Int32Array;
  private readonly bar: Float64Array;

  constructor(
    private readonly g: GroupTable,
    a: number,
    b: number,
    observed: Float64Array,
  ) {
    const n = (this.n = g.units.length);
    const W = (this.W = g.width);
    const K = g.keys.length;
    const A = g.stats[a];
    const B = g.stats[b];
    const d = new Float64Array(n * W);
    let off = 0;
    for (let i = 0; i < n * W; i++) {
      d[i] = A[i] - B[i];
      off = Math.max(off, Math.abs(d[i]));
    }
    const shifted = d.map((x) => x + off);
    const packed = Number.isInteger(off) && packable(shifted, n);
    this.off = packed ? off : 0;
    this.d = packed ? pack(shifted, n, W) : d;
    this.DW = packed ? Math.ceil(W / 2) : W;
    this.movedPacked = packed ? new Float64Array(this.DW) : null;
    this.sumA = new Float64Array(W);
    this.sumB = new Float64Array(W);
    for (let i = 0; i < n; i++) {
      for (let s = 0; s < W; s++) {
        this.sumA[s] += A[i * W + s];
        this.sumB[s] += B[i * W + s];
      }
    }
    this.moved = new Float64Array(W);
    this.sa = new Float64Array(W);
    this.sb = new Float64Array(W);
    this.outA = new Float64Array(K);
    this.outB = new Float64Array(K);
    this.keys = Int32Array.from(g.pairKeys, (pk) => pk.index);
    this.bar = Float64Array.from(this.keys, (k) => Math.abs(observed[a * K + k] - observed[b * K + k]) - TOLERANCE);
    this.counts = new Int32Array(this.keys.length);
  }

  /** Assignments from … to − 1 of the 2^n: bit i of the assignment swaps unit i. */
  enumerate(from: number, to: number): void {
    for (let t = from; t < to; t++) {
      this.clear();
      for (let i = 0; i < this.n; i++) if ((t >>> i) & 1) this.swap(i);
      this.judge(t === 0);
    }
  }

  /** `count` random assignments: unit i swapped when the next output of `gen` is ≥ 2^31. */
  draw(count: number, gen: Mulberry32): void {
    for (let t = 0; t < count; t++) {
      this.clear();
      for (let i = 0; i < this.n; i++) if (gen.next() >= SWAP_AT) this.swap(i);
      this.judge(false);
    }
  }

  private clear(): void {
    (this.movedPacked ?? this.moved).fill(0);
    this.swapped = 0;
  }

  private swap(i: number): void {
    const { d, DW } = this;
    const moved = this.movedPacked ?? this.moved;
    const o = i * DW;
    for (let s = 0; s < DW; s++) moved[s] += d[o + s];
    this.swapped++;
  }

  /** The statistic after the swaps added into `moved` (none: the observed sums themselves). */
  private judge(none: boolean): void {
    const { sa, sb, sumA, sumB, moved, W, outA, outB, keys, bar, counts } = this;
    if (none) {
      this.g.evaluate(sumA, outA);
      this.g.evaluate(sumB, outB);
    } else {
      if (this.movedPacked) {
        unpack(this.movedPacked, W, moved);
        const back = this.swapped * this.off;
        for (let s = 0; s < W; s++) moved[s] -= back;
      }
      for (let s = 0; s < W; s++) {
        sa[s] = sumA[s] - moved[s];
        sb[s] = sumB[s] + moved[s];
      }
      this.g.evaluate(sa, outA);
      this.g.evaluate(sb, outB);
    }
    for (let pk = 0; pk < keys.length; pk++) if (Math.abs(outA[keys[pk]] - outB[keys[pk]]) >= bar[pk]) counts[pk]++;
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
