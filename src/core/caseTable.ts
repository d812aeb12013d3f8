/**
 * The case list as compact columns, so 25,000 cases × several models cross from the worker to
 * the page as a handful of typed arrays instead of half a million objects. The page filters,
 * sorts and counts on these columns; a full CaseRecord is fetched only for the case on screen.
 *
 * Row i of every column is case `caseIds[i]`. Per-model columns are keyed by model name.
 */
export const OUTCOME_CODES = ['pass', 'partial', 'fail', 'skipped', 'none'] as const;
export type OutcomeCode = 0 | 1 | 2 | 3 | 4; // index into OUTCOME_CODES; 4 = the model has no such case

export interface FacetColumn {
  key: string; // 'task', 'script', 'challenge', 'category', 'source_dataset', …
  values: string[]; // distinct values, sorted
  /** CSR layout so a case may carry several values: case i has codes[offsets[i] .. offsets[i+1]). */
  offsets: Uint32Array;
  codes: Uint32Array;
}

export interface ModelColumns {
  score: Float64Array; // NaN when absent
  outcome: Uint8Array; // OutcomeCode
  misses: Uint32Array; // FN count (GT not found)
  falsePositives: Uint32Array; // FP count
  /** Distinct error kinds of this model and, per case, a bitmask over them (≤ 32 kinds). */
  errorKinds: string[];
  errorMask: Uint32Array;
  /**
   * The error taxonomy (errors.md) of the case view, when the benchmark has one: per case a
   * bitmask of the classes present on either side (bit i = ERROR_CLASSES[i]), and the counts per
   * slot (`errorCounts[row * ERROR_SLOTS.length + slot]`, FN classes then FP classes).
   */
  errorClasses?: Uint16Array;
  errorCounts?: Uint16Array;
}

export interface CaseTable {
  caseIds: string[];
  imagePaths: (string | null)[];
  /** Path inside the opened folder, or null when the image is missing. */
  imageFiles: (string | null)[];
  facets: FacetColumn[];
  models: string[];
  perModel: Record<string, ModelColumns>;
  /** Lower-cased GT and predicted strings of each case, for text search. */
  searchText: string[];
}
