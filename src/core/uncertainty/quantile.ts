/**
 * NumPy's default quantile ("linear", type 7) on sorted values, with NumPy's own interpolation
 * (`_lerp`: from the lower end below t = 0.5, from the upper end from 0.5 on) so that a Python
 * checker gets the same bits.
 */
export function quantile7(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = q * (n - 1);
  const lo = Math.floor(pos);
  if (lo >= n - 1) return sorted[n - 1];
  if (lo < 0) return sorted[0];
  const t = pos - lo;
  const a = sorted[lo];
  const b = sorted[lo + 1];
  const d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}
