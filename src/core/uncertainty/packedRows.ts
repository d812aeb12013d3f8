/**
 * Two count columns in one double, so the bootstrap's weighted sums (its main cost: LTB 300
 * images × 15 splits × 2 models is ~100 million multiply-adds at the defaults) make half the
 * additions. A pair (lo, hi) of non-negative integers is stored as lo + hi · 2^26; a weighted
 * sum of such doubles is Σ w·lo + 2^26 · Σ w·hi, exact as long as Σ w·lo < 2^26 and the whole
 * stays below 2^53. The weights of a replicate add up to n, so every value below 2^26 / n is
 * enough. Used only when every number of the group qualifies (LTB's counts do; means of scores
 * do not), and the unpacked sums are the same integers as unpacked summing gives.
 */
const SHIFT = 67108864; // 2^26

/** True when every value is a non-negative integer below 2^26 / n. */
export function packable(rows: Float64Array, n: number): boolean {
  const limit = SHIFT / Math.max(1, n);
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i];
    if (!(v >= 0 && v < limit && Number.isInteger(v))) return false;
  }
  return true;
}

/** Rows of width W into rows of width ceil(W / 2): column c holds columns 2c and 2c + 1. */
export function pack(rows: Float64Array, n: number, W: number): Float64Array {
  const PW = Math.ceil(W / 2);
  const out = new Float64Array(n * PW);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < PW; c++) {
      const lo = rows[i * W + 2 * c];
      const hi = 2 * c + 1 < W ? rows[i * W + 2 * c + 1] : 0;
      out[i * PW + c] = lo + hi * SHIFT;
    }
  }
  return out;
}

/** Packed sums (width ceil(W / 2)) back into W sums. */
export function unpack(packed: Float64Array, W: number, out: Float64Array): void {
  for (let c = 0; c < packed.length; c++) {
    const v = packed[c];
    const hi = Math.floor(v / SHIFT);
    out[2 * c] = v - hi * SHIFT;
    if (2 * c + 1 < W) out[2 * c + 1] = hi;
  }
}
