/**
 * Confidence intervals and paired tests for every benchmark (shared/specs/uncertainty.md).
 * The public surface the worker and the CLI call; the engine works on per-unit sufficient
 * statistics the adapters recorded while scoring, never on a second matching.
 */
import type { BenchmarkId, ModelResult, Protocol } from '../model';
import { runUncertainty } from './engine';
import type { UncertaintyBlock, UncertaintyContext, UncertaintyOptions } from './block';
import { groupTablesFor } from './adapters';

export * from './block';
export { uncertaintyOptions, UNCERTAINTY_OPTION_SPECS } from './options';
export { mulberry32u32, drawIndex } from './mulberry32';
export { quantile7 } from './quantile';
export { holm } from './holm';

/**
 * The `uncertainty` block of report.json for these scored results. `dataset` is the loaded
 * dataset object the results were scored on (the adapter's own type). Deterministic: the same
 * inputs give the same bits in Node and in the browser.
 */
export async function computeUncertainty(
  benchmark: BenchmarkId,
  dataset: unknown,
  results: readonly ModelResult[],
  protocol: Protocol,
  opts: UncertaintyOptions,
  ctx?: UncertaintyContext,
): Promise<UncertaintyBlock> {
  const tables = groupTablesFor(benchmark, dataset, results, protocol);
  return runUncertainty(tables, results.map((r) => r.model), opts, ctx);
}
