/** Helpers the benchmark adapters of the uncertainty engine share. */
import { InputError, type ModelResult } from '../../model';

/** The spec's unit order (ids as JavaScript sorts strings) and, per sorted unit, its original row. */
export function sortedUnits(ids: readonly string[]): { units: string[]; order: Int32Array } {
  const idx = ids.map((_, i) => i).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : a - b));
  return { units: idx.map((i) => ids[i]), order: Int32Array.from(idx) };
}

/** A model's rows of table `key` (recorded while scoring), reordered into the units' order. */
export function statsOf(r: ModelResult, key: string, width: number, order: Int32Array): Float64Array {
  const t = r.unitStats?.[key];
  if (!t || t.width !== width || t.rows.length !== order.length * width) {
    throw new InputError(`uncertainty: ${r.model} carries no per-unit statistics for "${key}" (scored by an older version?)`);
  }
  return permuteRows(t.rows, width, order);
}

export function permuteRows(rows: Float64Array | Int32Array, width: number, order: Int32Array): Float64Array {
  const out = new Float64Array(order.length * width);
  for (let i = 0; i < order.length; i++) out.set(rows.subarray(order[i] * width, (order[i] + 1) * width), i * width);
  return out;
}
