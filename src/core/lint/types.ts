/**
 * GT health (shared/specs/lint.md): what is wrong with a benchmark's ground truth before any model
 * runs. Plain, structured-cloneable data, so the worker can send a LintReport as it is.
 */
import type { BenchmarkId } from '../model';

export type LintSeverity = 'error' | 'warning';

export interface LintFinding {
  /** The case id of case_analysis.jsonl (LTB image name, Chronicles `<image>#spotting`, a TABench / PulseBench id, a gansulishuzhi page id). */
  case_id: string;
  /** The GT instance's index in that case (`CaseRecord.gt[i].id`, as the viewer numbers them); absent for a whole-case finding. */
  instance?: number;
  kind: string;
  severity: LintSeverity;
  /** For people: what is wrong and what the protocol does with it. Tools read `kind`. */
  detail: string;
}

export interface LintReport {
  schema: 'benchlens.lint/1';
  benchmark: BenchmarkId;
  /** Cases as case_analysis.jsonl counts them; GT instances over all of them. */
  dataset: { cases: number; instances: number };
  /** Findings per kind (kinds with none are left out), keys in alphabetical order. */
  counts: Record<string, number>;
  /** Sorted by case id (JS string order), then instance (whole-case findings first), then kind. */
  findings: LintFinding[];
}

/**
 * Every kind Benchlens reports and its severity. The spec's kinds first, then the ones added here
 * (the spec asks for new kinds rather than stretched ones).
 */
export const LINT_KINDS = {
  polygon_invalid: 'error',
  box_degenerate: 'error',
  out_of_image: 'warning',
  duplicate_instance: 'warning',
  unreachable_gt: 'error',
  image_missing: 'error',
  image_size_mismatch: 'error',
  exif_rotated: 'warning',
  empty_text: 'warning',
  text_suspicious: 'warning',
  inconsistent_across_splits: 'error',
  spotting_text_mismatch: 'warning',
  query_box_outside: 'error',
  no_selected_option: 'warning',
  // Added kinds:
  /** A GT item the reader had to drop (unreadable box, page, …): the protocol never sees it. */
  instance_dropped: 'error',
  /** LTB: a care instance transcribed `###`, ICDAR's mark for an unreadable (don't-care) word. */
  care_unreadable_text: 'warning',
  /** TABench: TABench-abs.jsonl and TABench-rel1000.jsonl disagree on a query's GT (models in the two spaces are scored against different GT). */
  inconsistent_across_spaces: 'error',
  /** TABench: the question names another box (R2T) or another text (T2R) than the line's GT: the model is asked one thing and scored on another. */
  question_mismatch: 'error',
} as const satisfies Record<string, LintSeverity>;

export type LintKind = keyof typeof LINT_KINDS;

/** One finding of a known kind, with its severity filled in. */
export function finding(case_id: string, instance: number | undefined, kind: LintKind, detail: string): LintFinding {
  // Keys in the spec's order (case_id, instance, kind, severity, detail): lint.json reads as the spec shows.
  return { case_id, ...(instance !== undefined ? { instance } : {}), kind, severity: LINT_KINDS[kind], detail };
}
