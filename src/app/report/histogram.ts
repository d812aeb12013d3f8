/**
 * Per-case score histograms whose bins are exactly what the case list's score-range filter
 * selects: bin k is the inclusive range [lo_k, hi_k] with hi_k the double just below the next
 * edge (the last bin ends at the top edge itself), so clicking a bin lists its count of cases.
 */

/** The largest double below `x` (x > 0 finite), or `x` itself for 0 and below. */
export function nextDown(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) - 1n);
  return view.getFloat64(0);
}

export interface Bin {
  /** The inclusive score range the case list filters on. */
  range: [number, number];
  /** The bin's edges as drawn. */
  from: number;
  to: number;
  /** Cases in the bin, per series. */
  counts: number[];
}

/**
 * `bins` equal bins over [0, max(1, largest score)], counting every finite score of each series
 * (NaN = the case has no score, left out). Cost: one pass over each column.
 */
export function scoreHistogram(series: readonly ArrayLike<number>[], bins: number): Bin[] {
  let top = 1;
  for (const s of series) for (let i = 0; i < s.length; i++) if (s[i] > top) top = s[i];
  const lo = 0;
  const edges = Array.from({ length: bins + 1 }, (_, k) => (k === bins ? top : lo + ((top - lo) * k) / bins));
  const out: Bin[] = [];
  for (let k = 0; k < bins; k++) {
    const hi = k === bins - 1 ? edges[k + 1] : nextDown(edges[k + 1]);
    out.push({ range: [edges[k], hi], from: edges[k], to: edges[k + 1], counts: series.map(() => 0) });
  }
  series.forEach((s, si) => {
    for (let i = 0; i < s.length; i++) {
      const v = s[i];
      if (!(v >= lo && v <= top)) continue; // NaN and negatives are in no bin
      let k = Math.min(bins - 1, Math.floor(((v - lo) / (top - lo)) * bins));
      // Float division can land one bin off an edge: settle by the bins' own inclusive ranges.
      while (k > 0 && v < out[k].range[0]) k--;
      while (k < bins - 1 && v > out[k].range[1]) k++;
      out[k].counts[si]++;
    }
  });
  return out;
}

/**
 * Whole-number ticks for a count axis from 0 to at least `max`: evenly spaced at 1, 2 or 5 × 10^k,
 * at most 5 of them, the last ≥ max (issue #42: ticks at 0, round(max / 2) and max read "0 / 2 / 3").
 * The axis is drawn up to the last tick.
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  let step = 1;
  for (let k = 1; ; k *= 10) {
    const s = [1, 2, 5].map((m) => m * k).find((c) => Math.ceil(top / c) <= 4);
    if (s) {
      step = s;
      break;
    }
  }
  const out: number[] = [];
  for (let v = 0; v < top + step; v += step) out.push(v);
  return out;
}
