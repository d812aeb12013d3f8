/**
 * Confidence intervals and paired tests for every benchmark (shared/specs/uncertainty.md).
 * The public surface the worker and the CLI call; the engine works on per-unit sufficient
 * statistics the adapters recorded while scoring, never on a second matching.
 */
import type { BenchmarkId, ModelResult, Protocol } from '../model';
import { runUncertainty } from './engine';
import { groupTablesFor } from './adapters';

export interface UncertaintyOptions {
  level: number;
  replicates: number;
  permutations: number;
  seed: number;
}

export interface UncertaintyPair {
  a: string;
  b: string;
  group: string;
  key: string;
  diff: number;
  ci: [number, number];
  p: number;
  p_holm: number;
}

export interface UncertaintyBlock {
  schema: 1;
  method: string;
  level: number;
  replicates: number;
  permutations: number;
  seed: number;
  groups: { id: string; units: number }[];
  intervals: Record<string /* model */, Record<string /* metric key */, [number, number]>>;
  pairs: UncertaintyPair[];
}

export interface UncertaintyContext {
  signal?: AbortSignal;
  /** Work done out of the total (arbitrary units, monotone; done === total at the end). */
  progress?: (done: number, total: number) => void;
  /** Awaited between chunks so a worker can receive a cancel message; the CLI leaves it out. */
  yieldEvery?: () => Promise<void>;
}

export const UNCERTAINTY_METHOD = 'paired percentile bootstrap; approximate randomization test';

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
