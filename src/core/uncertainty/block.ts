/** The shapes of the uncertainty block and of its options (shared/specs/uncertainty.md "report.json"). */
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
