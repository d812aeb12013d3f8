/**
 * What a benchmark hands the uncertainty engine for one group: per unit and per model a row of
 * sufficient statistics (counts, sums of per-case scores), and the protocol's own aggregation
 * as a function of the summed rows. A replicate only re-sums rows with weights and calls
 * `evaluate`, so nothing scored inside a unit is recomputed.
 */
export interface GroupTable {
  id: string;
  /** Units in the spec's order (ids sorted as JavaScript sorts strings). */
  units: readonly string[];
  /** Statistics per unit. */
  width: number;
  /** One per model, in model order: row i (width numbers from i · width) is unit i's statistics. */
  stats: readonly Float64Array[];
  /** The metric keys `evaluate` fills, in its output order (the report's `intervals` keys). */
  keys: readonly string[];
  /** Indices into `keys` of the headline metrics the pairs test, each with its Holm family. */
  pairKeys: readonly { index: number; family: string }[];
  /**
   * The official aggregation: `sums` (width) are the weighted sums of unit rows, `out`
   * (keys.length) receives the metrics. Must allocate nothing: it runs once per replicate.
   */
  evaluate(sums: Float64Array, out: Float64Array): void;
}
